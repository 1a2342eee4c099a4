// What `npm start` says besides the ready line: the sandbox's funded test wallet (so a first run can trade at
// once), and which of the sandbox's lines go to its log file instead of the screen (the bots' refused orders,
// which would otherwise bury the URL the trader must copy).

/** A profile's test wallets, as the sandbox writes them (other profiles have none). */
export interface WithTestWallets {
  name?: string;
  testWallets?: { address: string; privateKey: string }[];
}

/** The lines that name the first funded test wallet, or none when the profile has no test wallet. */
export function testWalletLines(profile: WithTestWallets): string[] {
  const wallet = profile.testWallets?.[0];
  if (!wallet) return [];
  return [
    `Sandbox test wallet, funded on this sandbox only: ${wallet.address}`,
    `  In the app: Wallet menu → “Use the sandbox test wallet” (you choose its password). Or import its private key: ${wallet.privateKey}`,
  ];
}

/** The market simulator's lines (its bots' refused or failed orders) go to the log file; the rest to the screen. */
export function sandboxLineGoesToFile(line: string): boolean {
  return line.startsWith('simulator: ');
}

/** Said once, the first time a line goes to the log file. */
export const logFileLine = (file: string) => `sandbox: the market bots' refused orders are written to ${file}`;
