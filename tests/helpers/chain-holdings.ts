// What a money test reads back from the sandbox chain to see that money moved: an address's pUSD, USDC.e,
// allowances and outcome shares, read at the latest block. Getters, because the chain and its contracts are
// known only once the test's sandbox has started.
import { Contract, type JsonRpcProvider } from 'ethers';

export interface HoldingContracts {
  collateral: string;
  usdcE: string;
  conditionalTokens: string;
}

export function chainHoldings(chain: () => JsonRpcProvider, contracts: () => HoldingContracts) {
  const erc20 = (token: string, fragment: string, name: string) =>
    new Contract(token, [fragment], chain()).getFunction(name);
  const balanceOf = (token: string) => erc20(token, 'function balanceOf(address) view returns (uint256)', 'balanceOf');
  return {
    pusdOf: (address: string) => balanceOf(contracts().collateral)(address) as Promise<bigint>,
    usdcEOf: (address: string) => balanceOf(contracts().usdcE)(address) as Promise<bigint>,
    allowanceOf: (token: string, owner: string, spender: string) =>
      erc20(
        token,
        'function allowance(address, address) view returns (uint256)',
        'allowance',
      )(owner, spender) as Promise<bigint>,
    sharesOf: (address: string, tokenId: string) =>
      new Contract(
        contracts().conditionalTokens,
        ['function balanceOf(address, uint256) view returns (uint256)'],
        chain(),
      ).getFunction('balanceOf')(address, tokenId) as Promise<bigint>,
  };
}
