// Adapts src/main/wallets (the Wallets service and its signer) to what the contract's handlers need, and
// forwards the signer's "locked after idle time" to the renderer as a walletLock event.
import type { SignerClient } from './signer-client';
import type { Wallets } from './wallets';
import type { EventHub } from '../ipc/event-hub';
import type { WalletAccess } from '../ipc/services';

export function walletAccess(wallets: Wallets, signer: SignerClient, hub?: EventHub): WalletAccess {
  signer.onLocked((address, reason) => hub?.emit('walletLock', { address, locked: true, reason }));
  return {
    list: () => wallets.list(),
    unlockedAddresses: () => signer.unlocked(),
    create: (label, password) => wallets.create(label, password),
    importMnemonic: (label, phrase, password, options) => wallets.importMnemonic(label, phrase, password, options),
    importPrivateKey: (label, privateKey, password) => wallets.importPrivateKey(label, privateKey, password),
    importKeystore: (label, text, password) => wallets.importKeystore(label, text, password),
    unlock: (label, password, options) => wallets.unlock(label, password, options),
    lock: (label) => wallets.lock(label),
    checkPassword: (label, password) => wallets.checkPassword(label, password),
    exportKeystore: (label) => wallets.exportKeystore(label),
  };
}
