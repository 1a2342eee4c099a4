// A loopback proxy in front of the sandbox relayer for the relayer fault tests: it forwards every request as it
// came, counts the submissions, and on demand refuses the next POST /submit with a 4xx (never passing it on), passes
// it on and then holds the answer (the relayer ran it; the client hears nothing), or reports every transaction as
// STATE_NEW forever (a state that never ends) — faults a real relayer shows but the sandbox's cannot on demand. It
// can also hold every poll of a transaction until released, so a test sees the "submitted" step before the result.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ForwardingProxy, type ForwardedAnswer } from './forwarding-proxy';

export type SubmitFault = 'refuse' | 'hold';

export class RelayerFaultProxy extends ForwardingProxy {
  /** Faults for the next POST /submit calls, one each. */
  readonly submitFaults: SubmitFault[] = [];
  /** Bodies of every POST /submit that arrived (refused ones too). */
  readonly submissions: string[] = [];
  /** While true, GET /transaction answers every record with state STATE_NEW. */
  neverEnds = false;
  private readonly held: ServerResponse[] = [];
  private target: string;
  private gate: Promise<void> | undefined;
  private open: (() => void) | undefined;

  constructor(upstream: string) {
    super(upstream);
    this.target = upstream;
  }

  /** Forwards to another relayer from now on (a proxy started before the sandbox it stands in front of). */
  retarget(upstream: string): void {
    this.target = upstream;
  }

  /** Holds every GET /transaction until `releasePolls`. */
  holdPolls(): void {
    this.gate = new Promise((resolve) => (this.open = resolve));
  }
  releasePolls(): void {
    this.open?.();
    this.gate = undefined;
  }

  protected override async forward(req: IncomingMessage, body: string): Promise<ForwardedAnswer> {
    const headers = Object.fromEntries(
      Object.entries(req.headers).filter(([k]) => !['host', 'content-length', 'connection'].includes(k)),
    ) as Record<string, string>;
    const answer = await fetch(`${this.target}${req.url}`, {
      method: req.method,
      headers,
      body: body === '' ? undefined : body,
    });
    return {
      status: answer.status,
      contentType: answer.headers.get('content-type') ?? 'application/json',
      text: await answer.text(),
    };
  }

  protected async onRequest(req: IncomingMessage, res: ServerResponse, body: string): Promise<void> {
    if (ForwardingProxy.isPost(req, '/submit')) {
      this.submissions.push(body);
      const fault = this.submitFaults.shift();
      if (fault === 'refuse') {
        res
          .writeHead(400, { 'content-type': 'application/json' })
          .end(JSON.stringify({ error: 'nonce 7 is not the Safe’s nonce 8' }));
        return;
      }
      const answer = await this.forward(req, body);
      if (fault === 'hold') {
        this.held.push(res);
        return;
      }
      return ForwardingProxy.reply(res, answer);
    }
    if (this.gate && req.method === 'GET' && req.url?.startsWith('/transaction?')) await this.gate;
    const answer = await this.forward(req, body);
    if (this.neverEnds && req.method === 'GET' && req.url?.startsWith('/transaction?') && answer.status === 200) {
      const records = JSON.parse(answer.text) as Record<string, unknown>[];
      answer.text = JSON.stringify(records.map((r) => ({ ...r, state: 'STATE_NEW' })));
    }
    ForwardingProxy.reply(res, answer);
  }
}
