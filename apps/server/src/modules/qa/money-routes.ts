/**
 * QA control of money (DESIGN §5): settle deposit windows, decide withdrawals, list both, and
 * check the ledger's invariants. `:transId` / `:id` accept the numeric id or the TransID.
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { DEPOSIT_STATUSES } from '@md/db';
import {
  amountToMicros,
  moneyAmount,
  WITHDRAWAL_DEFAULT_REJECT_REASON,
  WITHDRAWAL_REASON_MAX,
} from '@md/shared';
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

/** POST /__qa/withdrawals/:id/reject: why, one line the member reads (the default when absent). */
export const rejectBody = z
  .object(
    {
      reason: z
        .string({ error: 'reason must be a string' })
        .trim()
        .min(1, { error: 'reason must not be blank (leave it out for the default)' })
        .max(WITHDRAWAL_REASON_MAX, { error: `reason must be at most ${WITHDRAWAL_REASON_MAX} characters` })
        // Control characters (line breaks included) would break the notice and the mail's lines.
        // eslint-disable-next-line no-control-regex
        .regex(/^[^\u0000-\u001f\u007f]*$/, { error: 'reason must be one line without control characters' })
        .optional()
        .describe(
          `Why, in one line the member reads on Track and in the notice (at most ${WITHDRAWAL_REASON_MAX} characters); "${WITHDRAWAL_DEFAULT_REJECT_REASON}" when absent`,
        ),
    },
    {
      error: (issue) =>
        issue.code === 'unrecognized_keys'
          ? `Unknown field ${issue.keys.join(', ')}: the body takes only reason`
          : 'The body must be a JSON object',
    },
  )
  .strict();

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

  app.post<{ Params: { id: string } }>('/__qa/withdrawals/:id/approve', async (request) =>
    withdrawalView(decideWithdrawal(services, request.params.id, 'approve')),
  );
  app.post<{ Params: { id: string } }>('/__qa/withdrawals/:id/reject', async (request) => {
    // Refused before the transaction: a bad reason changes nothing.
    const { reason } = parse(rejectBody, request.body);
    return withdrawalView(decideWithdrawal(services, request.params.id, 'reject', undefined, reason));
  });

  app.get('/__qa/ledger/check', async () => {
    settleDeposits(services);
    return ledgerCheck(services);
  });
}
