/** Wallet addresses as members confirm them: the whole address, EIP-55 checksummed (viem). */
import { getAddress, isAddress } from 'viem';

/** The EIP-55 checksummed form of a 0x address; anything that is not one, as given. */
export const checksumAddress = (address: string): string =>
  isAddress(address, { strict: false }) ? getAddress(address) : address;
