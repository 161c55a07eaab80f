/**
 * QA control of money (DESIGN §5): settle deposit windows, decide withdrawals, list both, and
 * check the ledger's invariants. `:transId` / `:id` accept the numeric id or the TransID.
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { DEPOSIT_STATUSES } from '@md/db';
import { amountToMicros, moneyAmount } from '@md/shared';
import type { Services } from '../../core/services.ts';
import {
  depositView,
  expireDeposit,
  listDeposits,
  payDeposit,
  settleDeposits,
} from '../deposits/deposits.ts';
import { ledgerCheck } from '../ledger/ledger.ts';
import { decideWithdrawal, listWithdrawals, withdrawalView } from '../withdrawals/withdrawals.ts';

const payBody = z.object({ amount: moneyAmount.optional() }, { error: 'The body must be a JSON object' });
const depositQuery = z.object({
  status: z
    .enum(DEPOSIT_STATUSES, { error: `status must be one of ${DEPOSIT_STATUSES.join(', ')}` })
    .optional(),
});
const withdrawalQuery = z.object({
  status: z
    .enum(['PENDING', 'APPROVED', 'REJECTED'], { error: 'status must be PENDING, APPROVED or REJECTED' })
    .optional(),
});

type Parse = <T extends z.ZodType>(schema: T, value: unknown) => z.output<T>;

export function registerMoneyQaRoutes(app: FastifyInstance, services: Services, parse: Parse) {
  app.get('/__qa/deposits', async (request) =>
    listDeposits(services, parse(depositQuery, request.query).status),
  );

  app.post<{ Params: { transId: string } }>('/__qa/deposits/:transId/pay', async (request) => {
    const { amount } = parse(payBody, request.body);
    const result = payDeposit(
      services,
      request.params.transId,
      amount === undefined ? undefined : amountToMicros(amount),
    );
    return { ...depositView(result.deposit), credited: result.credited, message: result.message };
  });

  app.post<{ Params: { transId: string } }>('/__qa/deposits/:transId/expire', async (request) =>
    depositView(expireDeposit(services, request.params.transId)),
  );

  app.get('/__qa/withdrawals', async (request) =>
    listWithdrawals(services, parse(withdrawalQuery, request.query).status),
  );

  for (const decision of ['approve', 'reject'] as const)
    app.post<{ Params: { id: string } }>(`/__qa/withdrawals/:id/${decision}`, async (request) =>
      withdrawalView(decideWithdrawal(services, request.params.id, decision)),
    );

  app.get('/__qa/ledger/check', async () => {
    settleDeposits(services);
    return ledgerCheck(services);
  });
}
