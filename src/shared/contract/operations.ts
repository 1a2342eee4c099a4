// Every operation of the contract in one table, built from the areas' tables, and the types read from it.
import type { z } from 'zod';
import { accountOperations } from './account';
import { alertOperations } from './alerts';
import { rewardOperations } from './rewards';
import { marketOperations } from './markets';
import { portfolioOperations } from './portfolio';
import { settingsOperations } from './settings';
import { tradingOperations } from './trading';
import { traderOperations } from './traders';
import { walletOperations } from './wallets';
import { convertOperations } from './convert';

/** One table, so the preload, the browser-mode bridge and the router are built from the same list. */
export const operations = {
  ...settingsOperations,
  ...marketOperations,
  ...walletOperations,
  ...tradingOperations,
  ...accountOperations,
  ...alertOperations,
  ...rewardOperations,
  ...convertOperations,
  ...traderOperations,
  ...portfolioOperations,
} as const;

export type Operations = typeof operations;
export type OperationName = keyof Operations;
export const OPERATION_NAMES = Object.freeze(Object.keys(operations) as OperationName[]);
export const DEFAULT_MAX_PAYLOAD_BYTES = 16_384;

export type OperationInput<K extends OperationName> = z.input<Operations[K]['input']>;
export type ParsedInput<K extends OperationName> = z.output<Operations[K]['input']>;
export type OperationOutput<K extends OperationName> = NonNullable<Operations[K]['output']>;

export function isOperationName(value: unknown): value is OperationName {
  return typeof value === 'string' && Object.prototype.hasOwnProperty.call(operations, value);
}
