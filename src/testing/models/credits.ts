/**
 * Credits of the mock: one balance per organization, prices per run mode, charges that refuse (409,
 * nothing charged) when the balance is too low. Cancelling never refunds.
 * @module
 */
import type { Credits } from '../../schemas/records/account.js';
import { conflict } from '../http.js';
import { collectionKey, type MockStore } from '../store.js';

/**
 * Prices in credits, by the spec's price keys.
 * @example
 * ```ts
 * service.forecastControls.setCredits({ balance: PRICES['forecast.standard']! - 1 }); // one short of a standard forecast
 * ```
 */
export const PRICES: Readonly<Record<string, number>> = {
  'forecast.light': 1,
  'forecast.moderate': 2,
  'forecast.standard': 5,
  'forecast.deep': 10,
  'forecast.max': 20,
  'forecast.custom_plan': 15,
  'monitoring.question_month': 10,
};
/**
 * The balance an organization starts with.
 * @example
 * ```ts
 * expect((await client.credits.retrieve()).balance).toBe(DEFAULT_BALANCE); // 1000 before any forecast
 * ```
 */
export const DEFAULT_BALANCE = 1000;

/**
 * An organization's credits (`id` is the organization id).
 * @example
 * ```ts
 * service.forecastControls.setCredits({ balance: 3 }); // the org's CreditsRecord: { id, balance: 3, unlimited: false }
 * ```
 */
export interface CreditsRecord {
  id: string;
  balance: number;
  unlimited: boolean;
}
export const CREDITS = collectionKey<CreditsRecord>('credits');

/**
 * Prices a test changed (`service.decisionControls.setPrice`), by price key (`id`).
 * @example
 * ```ts
 * service.decisionControls.setPrice('forecast.light', 3);
 * service.store.collection(PRICE_CHANGES).get('forecast.light')?.credits; // 3
 * ```
 */
export const PRICE_CHANGES = collectionKey<{ id: string; credits: number }>('priceChanges');

/**
 * The price of `key` now: as a test changed it, else the table's.
 * @example
 * ```ts
 * priceOf(service.store, 'forecast.standard'); // 5, from PRICES
 * service.decisionControls.setPrice('forecast.standard', 8);
 * priceOf(service.store, 'forecast.standard'); // 8
 * ```
 */
export function priceOf(store: MockStore, key: string): number {
  return store.collection(PRICE_CHANGES).get(key)?.credits ?? (Object.hasOwn(PRICES, key) ? PRICES[key]! : 0);
}

/** The organization's record, created with the default balance on first use. */
export function creditsOf(store: MockStore, organizationId: string): CreditsRecord {
  const credits = store.collection(CREDITS);
  return credits.get(organizationId) ?? credits.insert({ id: organizationId, balance: DEFAULT_BALANCE, unlimited: false });
}

/** Charges the price of `key`; 409 `invalid_request_error` (nothing charged) when the balance is too low. */
export function chargeForecast(store: MockStore, organizationId: string, key: string): number {
  const record = creditsOf(store, organizationId);
  const price = priceOf(store, key);
  if (record.unlimited) return price;
  if (record.balance < price) {
    throw conflict(`Not enough credits: ${key} costs ${price}, the balance is ${record.balance}; nothing was charged`);
  }
  record.balance -= price;
  return price;
}

/** The credits record as `GET /credits` shows it (with the prices of `store`, when given). */
export function creditsView(record: CreditsRecord, store?: MockStore): Credits {
  return {
    balance: record.balance,
    unlimited: record.unlimited,
    topUps: [],
    prices: Object.entries(PRICES).map(([key, credits]) => ({ key: key as Credits['prices'][number]['key'], credits: store ? priceOf(store, key) : credits })),
    plan: { key: 'payg', name: 'Pay as you go', status: 'active', currentPeriodEnd: null, cancelAtPeriodEnd: false, creditsPerPeriod: 0 },
  };
}
