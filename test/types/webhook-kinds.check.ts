// Compiled by `tsc --noEmit` in `npm test` (never run): `isKnownWebhookEvent` lists every kind the
// event schemas name. A kind added to them and not to its list makes `AllListed` `never`, and this fails.
import type { AllListed } from '../../src/webhooks/verify.js';

export const allListed: AllListed = true;
