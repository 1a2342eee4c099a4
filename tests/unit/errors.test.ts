import { describe, expect, it } from 'vitest';
import {
  ErrorCode,
  PmDeskError,
  codeForStatus,
  httpFailureMessage,
  isErrorCode,
  maskId,
  redactContext,
  truncate,
  wrapOnce,
} from '../../packages/toolkit/src/model/errors';

describe('the error catalogue', () => {
  it('maps every catalogue key to its code string', () => {
    expect(ErrorCode).toEqual({
      NETWORK_ERROR: 'ERR_NETWORK',
      TIMEOUT_ERROR: 'ERR_TIMEOUT',
      API_REQUEST_FAILED: 'ERR_API_REQUEST',
      SSE_CONNECTION_FAILED: 'ERR_SSE_CONNECT',
      SSE_MESSAGE_ERROR: 'ERR_SSE_MESSAGE',
      SSE_CLOSED: 'ERR_SSE_CLOSED',
      INVALID_PARAMETER: 'ERR_INVALID_PARAM',
      VALIDATION_ERROR: 'ERR_VALIDATION',
      SERVER_ERROR: 'ERR_SERVER',
      NOT_FOUND: 'ERR_NOT_FOUND',
      UNAUTHORIZED: 'ERR_UNAUTHORIZED',
      FORBIDDEN: 'ERR_FORBIDDEN',
      RATE_LIMIT_EXCEEDED: 'ERR_RATE_LIMIT',
      INTERNAL_SDK_ERROR: 'ERR_SDK_INTERNAL',
      ENVIRONMENT_ERROR: 'ERR_ENVIRONMENT',
      NOT_AVAILABLE: 'ERR_NOT_AVAILABLE',
    });
    expect(isErrorCode('ERR_TIMEOUT')).toBe(true);
    expect(isErrorCode('TIMEOUT')).toBe(false);
  });

  it.each([
    [400, 'ERR_INVALID_PARAM'],
    [401, 'ERR_UNAUTHORIZED'],
    [403, 'ERR_FORBIDDEN'],
    [404, 'ERR_NOT_FOUND'],
    [429, 'ERR_RATE_LIMIT'],
    [500, 'ERR_SERVER'],
    [501, 'ERR_SERVER'],
    [502, 'ERR_SERVER'],
    [503, 'ERR_SERVER'],
    [504, 'ERR_SERVER'],
    [505, 'ERR_API_REQUEST'],
    [418, 'ERR_API_REQUEST'],
    [409, 'ERR_API_REQUEST'],
    [302, 'ERR_API_REQUEST'],
  ])('status %i maps to %s', (status, code) => {
    expect(codeForStatus(status)).toBe(code);
  });
});

describe('PmDeskError', () => {
  it('reads "[CODE] message (Method: x) (Status: n)"', () => {
    const error = new PmDeskError(ErrorCode.NOT_FOUND, 'API request failed with status 404.', {
      methodName: 'getEvent',
      statusCode: 404,
    });
    expect(error.message).toBe('[ERR_NOT_FOUND] API request failed with status 404. (Method: getEvent) (Status: 404)');
    expect(error.detail).toBe('API request failed with status 404.');
    expect(error.name).toBe('PmDeskError');
    expect(error).toBeInstanceOf(Error);
  });

  it('leaves out the method and status it does not know', () => {
    expect(new PmDeskError(ErrorCode.TIMEOUT_ERROR, 'API request timed out.').message).toBe(
      '[ERR_TIMEOUT] API request timed out.',
    );
    expect(new PmDeskError(ErrorCode.TIMEOUT_ERROR, 'x', { statusCode: 0 }).message).toBe(
      '[ERR_TIMEOUT] x (Status: 0)',
    );
  });

  it('carries every field of the catalogue’s error, and a generated id', () => {
    const cause = new Error('socket hang up');
    const error = new PmDeskError(ErrorCode.SERVER_ERROR, 'boom', {
      methodName: 'm',
      statusCode: 502,
      responseData: { message: 'bad gateway' },
      context: { url: '/x' },
      cause,
    });
    expect(error).toMatchObject({
      code: 'ERR_SERVER',
      methodName: 'm',
      statusCode: 502,
      responseData: { message: 'bad gateway' },
      context: { url: '/x' },
    });
    expect(error.cause).toBe(cause);
    expect(error.errorId).toMatch(/^pmd-err-\d{13}-[0-9a-z]{5}$/);
    expect(new PmDeskError(ErrorCode.SERVER_ERROR, 'x').errorId).not.toBe(error.errorId);
  });

  it('keeps the cause out of JSON and logs', () => {
    const error = new PmDeskError(ErrorCode.NETWORK_ERROR, 'n', { cause: { privateKey: '0xdead' } });
    expect(JSON.stringify(error)).not.toContain('dead');
    expect(Object.keys(error)).not.toContain('cause');
    expect(error.toJSON()).toEqual({ code: 'ERR_NETWORK', message: 'n', errorId: error.errorId });
  });

  it('masks secrets in its context at any depth', () => {
    const error = new PmDeskError(ErrorCode.UNAUTHORIZED, 'no', {
      context: {
        apiKey: 'k-123',
        nested: {
          secret: 's',
          passphrase: 'p',
          password: 'pw',
          privateKey: '0x1',
          mnemonic: 'a b c',
          signature: '0xsig',
        },
        headers: [{ POLY_API_KEY: 'k', POLY_PASSPHRASE: 'pp', authorization: 'Bearer x' }],
        geo_block_token: 'g',
        market: 'keep-me',
      },
    });
    const text = JSON.stringify(error.context);
    for (const secret of ['k-123', '"s"', '"p"', 'pw', '0x1', 'a b c', '0xsig', '"pp"', 'Bearer', '"g"'])
      expect(text).not.toContain(secret);
    expect(error.context?.market).toBe('keep-me');
  });
});

describe('wrapping once', () => {
  it('passes a PmDeskError through unchanged', () => {
    const error = new PmDeskError(ErrorCode.FORBIDDEN, 'f', { methodName: 'a' });
    expect(wrapOnce(error, 'b')).toBe(error);
    expect(wrapOnce(wrapOnce(error))).toBe(error);
  });

  it('fills in a missing method name without nesting', () => {
    const error = new PmDeskError(ErrorCode.FORBIDDEN, 'f');
    const wrapped = wrapOnce(error, 'getTrader');
    expect(wrapped.methodName).toBe('getTrader');
    expect(wrapped.message).toBe('[ERR_FORBIDDEN] f (Method: getTrader)');
    expect(wrapOnce(wrapped, 'other')).toBe(wrapped);
  });

  it('turns anything else into an internal error with its details', () => {
    const wrapped = wrapOnce(new TypeError('x is not a function'), 'search');
    expect(wrapped.code).toBe('ERR_SDK_INTERNAL');
    expect(wrapped.detail).toBe('An unexpected internal SDK error occurred. Details: x is not a function');
    expect(wrapOnce('plain').detail).toBe('An unexpected internal SDK error occurred. Details: plain');
  });
});

describe('HTTP failure messages', () => {
  it('appends the server message, else the server error, else nothing', () => {
    expect(httpFailureMessage(404, { message: 'market gone' })).toBe(
      'API request failed with status 404. Server message: market gone',
    );
    expect(httpFailureMessage(400, { error: 'bad slug' })).toBe(
      'API request failed with status 400. Server error: bad slug',
    );
    expect(httpFailureMessage(400, { message: 'm', error: 'e' })).toBe(
      'API request failed with status 400. Server message: m',
    );
    expect(httpFailureMessage(500, { error: { reason: 'db' } })).toBe(
      'API request failed with status 500. Server error: {"reason":"db"}',
    );
    expect(httpFailureMessage(503, 'Service Unavailable')).toBe('API request failed with status 503.');
    expect(httpFailureMessage(502, undefined)).toBe('API request failed with status 502.');
  });
});

describe('context helpers', () => {
  it('masks ids and cuts long text', () => {
    expect(maskId('12483')).toBe('***');
    expect(maskId('')).toBeUndefined();
    expect(truncate('a'.repeat(60), 50)).toBe(`${'a'.repeat(50)}...`);
    expect(truncate('short', 50)).toBe('short');
  });

  it('redacts without touching the input, and survives cycles', () => {
    const input: Record<string, unknown> = { secret: 'x', n: 1n };
    input.self = input;
    const out = redactContext(input);
    expect(out.secret).toBe('***');
    expect(out.n).toBe('1');
    expect(input.secret).toBe('x');
  });
});
