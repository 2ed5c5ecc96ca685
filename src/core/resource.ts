import type { BaseClient } from './base-client.js';

/**
 * Base of every resource namespace (`client.questions`, …). A method names its operation and
 * passes its arguments to the client's pipeline; nothing else.
 */
export abstract class APIResource {
  /** @internal */
  protected readonly _client: BaseClient;
  /** @internal */
  protected readonly _call: BaseClient['_call'];
  /** @internal */
  protected readonly _list: BaseClient['_list'];

  /** @internal */
  constructor(client: BaseClient) {
    this._client = client;
    this._call = client._call.bind(client);
    this._list = client._list.bind(client);
  }
}
