// The toolkit's download of Polymarket's accounting snapshot against fixed answers on a real socket: a ZIP is
// returned as its bytes; a page, JSON or a body that is not a ZIP archive is ERR_VALIDATION, never saved.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Logger } from '../../packages/toolkit/src/base/logger';
import { DataClient } from '../../packages/toolkit/src/polymarket/data';
import { PmDeskError } from '../../packages/toolkit/src/model/errors';
import { startFixtureServer, type FixtureServer } from '../helpers/fixture-server';

const USER = '0x56687bf447db6ffa42ffe2204a05edaa20f55839';
const logger: Logger = { debug() {}, warn() {}, error() {} };
let data: FixtureServer;

beforeAll(async () => {
  data = await startFixtureServer();
});
afterAll(async () => {
  await data?.stop();
});

/** The smallest ZIP there is: an empty archive's end-of-central-directory record. */
const EMPTY_ZIP = Buffer.from([0x50, 0x4b, 0x05, 0x06, ...new Array<number>(18).fill(0)]);

describe("Polymarket's accounting snapshot", () => {
  it('is returned as the bytes served, every one of them (none read as text)', async () => {
    // Bytes a text decoding would change: invalid UTF-8 after the header.
    const zip = Buffer.concat([EMPTY_ZIP, Buffer.from([0xff, 0xfe, 0x80, 0x00])]);
    let query = '';
    data.on('GET', '/v1/accounting/snapshot', (req, reply) => {
      query = req.rawQuery;
      reply.bytes(200, zip, 'application/zip');
    });
    const bytes = await new DataClient({ baseUrl: data.url, logger }).downloadAccountingSnapshot(USER);
    expect(Buffer.from(bytes)).toEqual(zip);
    expect(query).toBe(`user=${USER}`);
  });

  it('refuses what is not a ZIP archive: JSON, a page, a short body', async () => {
    const client = new DataClient({ baseUrl: data.url, logger });
    for (const [body, type] of [
      ['{"error":"none"}', 'application/json'],
      ['<html>login</html>', 'text/html'],
      ['PK', 'application/zip'],
    ] as const) {
      data.on('GET', '/v1/accounting/snapshot', (_req, reply) => reply.text(200, body, type));
      const error = await client.downloadAccountingSnapshot(USER).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(PmDeskError);
      expect((error as PmDeskError).code).toBe('ERR_VALIDATION');
    }
  });
});
