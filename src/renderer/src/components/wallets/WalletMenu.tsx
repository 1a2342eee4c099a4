// The wallet menu (owned by the wallets work).
export function WalletMenu() {
  return <div data-testid="wallet-menu" />;
}
