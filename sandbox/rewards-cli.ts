// `npm run sandbox:rewards -- --profile FILE`: ends the reward day of a running sandbox now: the liquidity
// rewards its scoring makers earned since the last payout are paid on chain (POST /admin/rewards on the Polymarket
// server the profile's gammaUrl names) and the payments are printed. Sandbox only: Polymarket has no such route.
import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';

const USAGE = `Usage: npm run sandbox:rewards -- --profile FILE [--json]

  --profile FILE   the network profile the sandbox wrote (npm run sandbox -- --profile-out FILE)
  --json           print the payout report as JSON
  -h, --help`;

interface PayoutJson {
  day: string;
  total: string;
  totalCollateral: number;
  payments: { marketId: string; maker: string; amount: string; share: number; transactionHash: string }[];
}

/** Dollars and cents from base units, exactly (rounded down to the cent; the base units are printed too). */
function dollars(baseUnits: string): string {
  const units = BigInt(baseUnits);
  return `$${units / 1_000_000n}.${((units % 1_000_000n) / 10_000n).toString().padStart(2, '0')}`;
}

export function formatPayout(report: PayoutJson): string {
  if (!report.payments.length) return `no liquidity rewards to pay for ${report.day}: no order scored\n`;
  const lines = [
    `paid ${dollars(report.total)} (${report.total} base units) of liquidity rewards for ${report.day}`,
    ...report.payments.map(
      (p) =>
        `  market ${p.marketId}: ${p.maker} ${dollars(p.amount)} (${p.amount}, ${p.share}% of the weight) tx ${p.transactionHash}`,
    ),
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
      options: { profile: { type: 'string' }, json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
    });
  } catch (error) {
    process.stderr.write(`sandbox:rewards: ${(error as Error).message}\n${USAGE}\n`);
    return 2;
  }
  if (parsed.values.help) {
    out(`${USAGE}\n`);
    return 0;
  }
  if (!parsed.values.profile) {
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
      `sandbox:rewards: cannot read the profile ${parsed.values.profile}: ${(error as Error).message}\n`,
    );
    return 2;
  }
  let response: Response;
  try {
    response = await fetch(`${gammaUrl}/admin/rewards`, { method: 'POST', signal: AbortSignal.timeout(120_000) });
  } catch (error) {
    process.stderr.write(`sandbox:rewards: the sandbox at ${gammaUrl} did not answer: ${(error as Error).message}\n`);
    return 1;
  }
  const body = (await response.json().catch(() => ({}))) as PayoutJson & { error?: string };
  if (!response.ok) {
    process.stderr.write(`sandbox:rewards: ${body.error ?? `HTTP ${response.status}`}\n`);
    return 1;
  }
  out(parsed.values.json ? `${JSON.stringify(body, null, 2)}\n` : formatPayout(body));
  return 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error: unknown) => {
      process.stderr.write(`sandbox:rewards: ${error instanceof Error ? error.message : String(error)}\n`);
      process.exit(1);
    },
  );
}
