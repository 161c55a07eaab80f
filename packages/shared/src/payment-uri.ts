/**
 * EIP-681 payment requests (https://eips.ethereum.org/EIPS/eip-681): what a deposit QR encodes so
 * that a wallet app learns the chain, the asset, the recipient and the exact amount, not only an
 * address. Pure string building over integers (bigint), no floats: amounts are base units (wei for
 * BNB, 10^-18 USDT for USDT BEP20). Addresses go in as given; callers pass checksummed ones.
 */
import { BSC_CHAIN_ID, MICROS_PER_UNIT, USDT_BEP20_CONTRACT, type Currency } from './constants.ts';

const EVM_ADDRESS = /^0x[0-9a-fA-F]{40}$/;
/** Decimals of a micro-unit: MICROS_PER_UNIT is 10^6. */
const MICRO_DECIMALS = String(MICROS_PER_UNIT).length - 1;

function checkAddress(what: string, address: string): string {
  if (!EVM_ADDRESS.test(address)) throw new RangeError(`${what} is not an EVM address: ${address}`);
  return address;
}

function checkChainId(chainId: number): number {
  if (!Number.isSafeInteger(chainId) || chainId <= 0)
    throw new RangeError(`chain id must be a positive integer: ${chainId}`);
  return chainId;
}

function checkAmount(amount: bigint): bigint {
  if (amount < 0n) throw new RangeError(`amount must not be negative: ${amount}`);
  return amount;
}

/**
 * Integer micro-units (how the server keeps money) to a token's base units, exactly: 12.345678
 * USDT (12,345,678 micro-units) is 12,345,678 × 10^12 base units of an 18-decimal token. A token with
 * fewer than 6 decimals takes only amounts it can represent (else a RangeError, never a rounding).
 */
export function microsToBaseUnits(micros: number | bigint, decimals: number): bigint {
  if (typeof micros === 'number' && !Number.isSafeInteger(micros))
    throw new RangeError(`micro-units must be a safe integer: ${micros}`);
  if (!Number.isInteger(decimals) || decimals < 0)
    throw new RangeError(`decimals must be a whole number: ${decimals}`);
  const value = checkAmount(BigInt(micros));
  if (decimals >= MICRO_DECIMALS) return value * 10n ** BigInt(decimals - MICRO_DECIMALS);
  const divisor = 10n ** BigInt(MICRO_DECIMALS - decimals);
  if (value % divisor !== 0n)
    throw new RangeError(`${micros} micro-units is not a whole number of base units at ${decimals} decimals`);
  return value / divisor;
}

/** `ethereum:<token>@<chain>/transfer?address=<recipient>&uint256=<amount>`: an ERC-20 (BEP20) transfer. */
export function tokenTransferUri(request: {
  chainId: number;
  token: string;
  recipient: string;
  amount: bigint;
}): string {
  const token = checkAddress('token', request.token);
  const recipient = checkAddress('recipient', request.recipient);
  return `ethereum:${token}@${checkChainId(request.chainId)}/transfer?address=${recipient}&uint256=${checkAmount(request.amount)}`;
}

/** `ethereum:<recipient>@<chain>?value=<wei>`: a transfer of the chain's native coin. */
export function nativeTransferUri(request: { chainId: number; recipient: string; value: bigint }): string {
  const recipient = checkAddress('recipient', request.recipient);
  return `ethereum:${recipient}@${checkChainId(request.chainId)}?value=${checkAmount(request.value)}`;
}

/**
 * The payment request of a deposit on BSC: USDT.BEP20 a transfer of the USDT token, BNB.BSC a
 * native transfer. `amount` is in the currency's base units (see microsToBaseUnits).
 */
export function depositPaymentUri(currency: Currency, recipient: string, amount: bigint): string {
  return currency === 'BNB.BSC'
    ? nativeTransferUri({ chainId: BSC_CHAIN_ID, recipient, value: amount })
    : tokenTransferUri({ chainId: BSC_CHAIN_ID, token: USDT_BEP20_CONTRACT, recipient, amount });
}
