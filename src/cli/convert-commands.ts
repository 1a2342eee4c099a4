// `pmdesk convert --event E --from-no OUTCOMES --size N`: turns N No shares of each named outcome of a
// negative-risk event into N Yes shares of each other outcome plus (k − 1)·N pUSD, through the neg-risk
// adapter's convertPositions, as the account (and through Polymarket's relayer where the other money commands
// would go: position-commands.ts). The event's outcomes and their question indexes come from the market source
// (Gamma's negRiskMarketID and questionID); the sizes, holdings and position ids are checked on chain first.
import type { Command } from 'commander';
import { ErrorCode, PmDeskError, invalidParameter } from '@pmdesk/toolkit/model';
import type { PredictionEvent } from '@pmdesk/toolkit/model';
import { chooseOutcomes, convertEventOf, formatUsd, moneyActionCalls, sharesText } from '@pmdesk/toolkit';
import type { CliContext } from './aggregator-commands';
import { execute, onChain, withActionFlags, type ActionFlags } from './position-commands';

type Action = (ctx: CliContext, ...args: never[]) => Promise<void>;
type Run = (action: Action) => (...args: unknown[]) => Promise<void>;

interface ConvertFlags extends ActionFlags {
  event?: string;
  fromNo?: string;
  size?: string;
}

/** Exact shares ("12.5") as 6-decimal base units, never through a float. */
export function shareUnits(text: string | undefined): bigint {
  const match = /^([0-9]{1,12})(?:\.([0-9]{1,6}))?$/.exec((text ?? '').trim());
  if (!match) throw invalidParameter(`--size is a number of shares with at most 6 decimals, like 12.5; got ${text}.`);
  const units = BigInt(match[1]!) * 1_000_000n + BigInt((match[2] ?? '').padEnd(6, '0'));
  if (units <= 0n) throw invalidParameter('--size must be more than zero shares.');
  return units;
}

async function findEvent(ctx: CliContext, idOrSlug: string): Promise<PredictionEvent> {
  const source = ctx.markets();
  const event = idOrSlug.includes('-')
    ? (await source.getEventsBySlug(idOrSlug))[0]
    : await source.getEvent('polymarket', idOrSlug);
  if (!event) throw new PmDeskError(ErrorCode.NOT_FOUND, `No event ${idOrSlug.slice(0, 80)}.`);
  return event;
}

export function registerConvertCommands(program: Command, run: Run): void {
  withActionFlags(
    program
      .command('convert')
      .description(
        'give N No shares of each named outcome of a negative-risk event for N Yes of each other outcome plus (k − 1)·N pUSD',
      )
      .requiredOption('--event <event>', 'the negative-risk event (id or slug)')
      .requiredOption(
        '--from-no <outcomes>',
        'the outcomes whose No shares you give, comma-separated, by name or index',
      )
      .requiredOption('--size <shares>', 'No shares given of each named outcome'),
  ).action(
    run(async (ctx: CliContext, opts: ConvertFlags) => {
      const units = shareUnits(opts.size);
      const event = convertEventOf(await findEvent(ctx, opts.event ?? ''));
      const chosen = chooseOutcomes(event, opts.fromNo ?? '');
      const chain = await onChain(ctx, program, opts);
      try {
        const { calls, convert } = await moneyActionCalls(chain.provider, chain.contracts, chain.account.address, {
          action: 'convert',
          amount: units.toString(),
          convert: { marketId: event.marketId, fromNo: chosen.map((o) => o.index) },
        });
        const plan = convert!;
        const name = (index: number) => event.outcomes.find((o) => o.index === index)?.name ?? `outcome ${index}`;
        const given = plan.given.map((g) => `${sharesText(plan.amount)} No of ${name(g.index)}`).join(', ');
        const received = [
          ...plan.received.map((r) => `${sharesText(plan.yesEach)} Yes of ${name(r.index)}`),
          ...(plan.collateral > 0n ? [`${formatUsd(plan.collateral)} pUSD`] : []),
        ].join(', ');
        await execute(ctx, chain, calls, opts, [
          ['action', 'convert'],
          ['event', `${event.title} (${event.marketId})`],
          ['give', given],
          ['receive', received || 'nothing'],
          [
            'fee',
            plan.feePerShare > 0n
              ? `${plan.feeBips} bps: ${sharesText(plan.feeShares)} Yes shares and ${formatUsd(plan.feeCollateral)} pUSD`
              : 'none',
          ],
        ]);
      } finally {
        chain.provider.destroy();
      }
    }),
  );
}
