/**
 * The Account group: the organization's credits. Declarations only: the client's resources and the
 * mock's handlers both read them.
 * @module
 */
import { defineOperations } from '../core/operation.js';
import { returns } from '../schemas/returns.js';
import { FORECASTS } from './scopes.js';

const group = { scopes: FORECASTS };

/** The Account group. */
export const creditOperations = defineOperations('credits', {
  retrieve: { method: 'GET', path: '/credits', response: returns('Credits') },
}, group);
