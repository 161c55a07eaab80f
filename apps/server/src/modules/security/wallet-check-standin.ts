/**
 * Stand-in for the BscScan wallet-stats call the web app makes before mailing the wallet OTP.
 * It approves any well-formed address, so production serves it only when asked
 * (WALLET_CHECK_STANDIN=on, config.ts); a real deployment points walletCheckUrl at the real check.
 */
import type { FastifyInstance } from 'fastify';
import { checksummedBep20 } from './security.ts';

export const WALLET_CHECK_STANDIN_PATH = '/__mock/bscscan/wallet-stats/';

export function registerWalletCheckStandin(app: FastifyInstance) {
  app.get<{ Params: { address: string } }>(`${WALLET_CHECK_STANDIN_PATH}:address`, async (request, reply) => {
    const address = checksummedBep20(request.params.address);
    if (!address)
      return reply.code(400).send({ status: '0', message: 'NOTOK', result: 'Invalid BEP20 address' });
    return { status: '1', message: 'OK', result: { address, network: 'BEP.20' } };
  });
}
