// A loopback proxy in front of the sandbox relayer for the relayer fault tests: it forwards every request as it
// came, counts the submissions, and on demand refuses the next POST /submit with a 4xx (never passing it on), passes
// it on and then holds the answer (the relayer ran it; the client hears nothing), or reports every transaction as
// STATE_NEW forever (a state that never ends) — faults a real relayer shows but the sandbox's cannot on demand.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ForwardingProxy } from './forwarding-proxy';

export type SubmitFault = 'refuse' | 'hold';

export class RelayerFaultProxy extends ForwardingProxy {
  /** Faults for the next POST /submit calls, one each. */
  readonly submitFaults: SubmitFault[] = [];
  /** Bodies of every POST /submit that arrived (refused ones too). */
  readonly submissions: string[] = [];
  /** While true, GET /transaction answers every record with state STATE_NEW. */
  neverEnds = false;
  private readonly held: ServerResponse[] = [];

  protected async onRequest(req: IncomingMessage, res: ServerResponse, body: string): Promise<void> {
    if (ForwardingProxy.isPost(req, '/submit')) {
      this.submissions.push(body);
      const fault = this.submitFaults.shift();
      if (fault === 'refuse') {
        res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'nonce 7 is not the Safe’s nonce 8' }));
        return;
      }
      const answer = await this.forward(req, body);
      if (fault === 'hold') {
        this.held.push(res);
        return;
      }
      return ForwardingProxy.reply(res, answer);
    }
    const answer = await this.forward(req, body);
    if (this.neverEnds && req.method === 'GET' && req.url?.startsWith('/transaction?') && answer.status === 200) {
      const records = JSON.parse(answer.text) as Record<string, unknown>[];
      answer.text = JSON.stringify(records.map((r) => ({ ...r, state: 'STATE_NEW' })));
    }
    ForwardingProxy.reply(res, answer);
  }
}
