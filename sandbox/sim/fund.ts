// Wallets for the sandbox's bots: derived from the seed (so the same seed gives the same traders), given gas,
// collateral and the approvals trading needs, all in one block before the market opens.
import { Contract, MaxUint256, Wallet, id, parseUnits } from 'ethers';
import { compileContracts, conditionalTokensArtifact } from '../chain/compile';
import type { Deployment } from '../chain/deploy';
import { sandboxProvider, sendInOneBlock } from '../chain/transactions';

export async function fundBots(
  deployment: Deployment,
  count: number,
  seed: number,
  collateralEach = 250_000,
): Promise<Wallet[]> {
  const provider = sandboxProvider(deployment.rpcUrl, deployment.chainId);
  try {
    const bots = Array.from({ length: count }, (_, i) => new Wallet(id(`pmdesk-sandbox-bot:${seed}:${i}`), provider));
    for (const bot of bots) await provider.send('anvil_setBalance', [bot.address, '0x3635C9ADC5DEA00000']); // 1000 ETH for gas
    const operator = new Wallet(deployment.operator.privateKey, provider);
    const collateral = new Contract(deployment.contracts.collateral, compileContracts().Collateral.abi, provider);
    const ctf = new Contract(deployment.contracts.conditionalTokens, conditionalTokensArtifact().abi, provider);
    const { exchange, negRiskExchange, negRiskAdapter, conditionalTokens } = deployment.contracts;
    const amount = parseUnits(String(collateralEach), 6);
    await sendInOneBlock(provider, deployment.chainId, [
      ...bots.map((bot) => ({ wallet: operator, contract: collateral, method: 'mint', args: [bot.address, amount] })),
      ...bots.flatMap((bot) => [
        ...[exchange, negRiskExchange, negRiskAdapter, conditionalTokens].map((spender) => ({
          wallet: bot,
          contract: collateral,
          method: 'approve',
          args: [spender, MaxUint256],
        })),
        ...[exchange, negRiskExchange, negRiskAdapter].map((op) => ({
          wallet: bot,
          contract: ctf,
          method: 'setApprovalForAll',
          args: [op, true],
        })),
      ]),
    ]);
    return bots.map((bot) => new Wallet(bot.privateKey));
  } finally {
    provider.destroy();
  }
}
