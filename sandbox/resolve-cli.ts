// `npm run sandbox:resolve -- --profile FILE <market> <outcome>`: resolves a market on a running sandbox through
// its admin route (POST /admin/resolve on the Polymarket server the profile's gammaUrl names) and prints the
// payouts. Sandbox only: Polymarket has no such route.
import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import type { ResolutionReport } from './resolve';

const USAGE = `Usage: npm run sandbox:resolve -- --profile FILE <market id, slug or condition id> <Yes|No|outcome name>

  --profile FILE   the network profile the sandbox wrote (npm run sandbox -- --profile-out FILE)
  --json           print the report as JSON
  -h, --help`;

/** The report in a few lines: which outcome won, what a share of each redeems for, what was cancelled. */
export function formatReport(report: ResolutionReport): string {
  const lines = [
    `resolved ${report.marketId} (${report.slug}): ${report.winner.name} wins`,
    `  condition ${report.conditionId}, reportPayouts ${report.transactionHash}`,
    ...report.payouts.map(
      (p) =>
        `  ${p.outcome}: payout ${p.numerator}/${report.payoutDenominator} = ${p.perShare} pUSD per share (token ${p.tokenId})`,
    ),
    `  ${report.cancelledOrders.length} resting order(s) cancelled`,
  ];
  return `${lines.join('\n')}\n`;
}

export async function main(
  argv: string[],
  out: (text: string) => void = (t) => process.stdout.write(t),
): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: { profile: { type: 'string' }, json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
    });
  } catch (error) {
    process.stderr.write(`sandbox:resolve: ${(error as Error).message}\n${USAGE}\n`);
    return 2;
  }
  if (parsed.values.help) {
    out(`${USAGE}\n`);
    return 0;
  }
  const [market, outcome] = parsed.positionals;
  if (!parsed.values.profile || !market || !outcome || parsed.positionals.length !== 2) {
    process.stderr.write(`${USAGE}\n`);
    return 2;
  }
  let gammaUrl: string;
  try {
    const profile = JSON.parse(await readFile(parsed.values.profile, 'utf8')) as { gammaUrl?: unknown };
    if (typeof profile.gammaUrl !== 'string' || !/^https?:\/\//.test(profile.gammaUrl))
      throw new Error('the profile has no gammaUrl');
    gammaUrl = profile.gammaUrl.replace(/\/+$/, '');
  } catch (error) {
    process.stderr.write(
      `sandbox:resolve: cannot read the profile ${parsed.values.profile}: ${(error as Error).message}\n`,
    );
    return 2;
  }
  let response: Response;
  try {
    response = await fetch(`${gammaUrl}/admin/resolve`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ market, outcome }),
    });
  } catch (error) {
    process.stderr.write(`sandbox:resolve: the sandbox at ${gammaUrl} did not answer: ${(error as Error).message}\n`);
    return 1;
  }
  const body = (await response.json().catch(() => ({}))) as ResolutionReport & { error?: string };
  if (!response.ok) {
    process.stderr.write(`sandbox:resolve: ${body.error ?? `HTTP ${response.status}`}\n`);
    return 1;
  }
  out(parsed.values.json ? `${JSON.stringify(body, null, 2)}\n` : formatReport(body));
  return 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error: unknown) => {
      // An unexpected failure still ends the command with a sentence and a non-zero status, never an unhandled rejection.
      process.stderr.write(`sandbox:resolve: ${error instanceof Error ? error.message : String(error)}\n`);
      process.exit(1);
    },
  );
}
