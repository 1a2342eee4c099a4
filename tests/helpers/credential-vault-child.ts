// Child process for the keychain tests: opens the credential vault in a process of its own (its own D-Bus
// environment, or none) and prints what it saw as one JSON line.
import { CredentialVault } from '../../src/main/credentials/api-credentials';

const [command, address, exchange, payload] = process.argv.slice(2) as [string, string, string, string | undefined];
const warnings: unknown[] = [];
const vault = await CredentialVault.open({ onWarning: (w) => warnings.push(w.toJSON()) });
let loaded: unknown = null;
if (command === 'save') await vault.save(address, exchange, JSON.parse(payload!));
if (command === 'save-then-load') {
  await vault.save(address, exchange, JSON.parse(payload!));
  loaded = await vault.load(address, exchange);
}
if (command === 'load') loaded = await vault.load(address, exchange);
if (command === 'forget') loaded = await vault.forget(address, exchange);
process.stdout.write(
  `${JSON.stringify({ storage: vault.storage, warning: vault.warning?.toJSON() ?? null, warnings, loaded })}\n`,
);
