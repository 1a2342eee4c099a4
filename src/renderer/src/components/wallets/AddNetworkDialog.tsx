// Remember a custom network (a private CLOB, a fork): its chain, where it reads markets (Polymarket's own APIs
// or an aggregator) with that source's URLs, its exchange and chain URLs, and the order format its exchange
// speaks. Main validates every field and answers in a sentence when one is wrong.
import { useState, type FormEvent } from 'react';
import type { MarketSourceName } from '../../../../shared/contract';
import { useSession } from '../../store/session';
import { ask, messageOf } from '../../bridge/terminal';
import { Dialog, ErrorLine, TextField } from './Dialog';

export function AddNetworkDialog({ onClose }: { onClose: () => void }) {
  const [name, setName] = useState('');
  const [chainId, setChainId] = useState('');
  const [source, setSource] = useState<MarketSourceName>('polymarket');
  const [aggregatorUrl, setAggregatorUrl] = useState('');
  const [gammaUrl, setGammaUrl] = useState('');
  const [dataUrl, setDataUrl] = useState('');
  const [clobUrl, setClobUrl] = useState('');
  const [rpcUrl, setRpcUrl] = useState('');
  const [wsUrl, setWsUrl] = useState('');
  const [orderVersion, setOrderVersion] = useState<1 | 2 | 3>(2);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function add(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const added = await ask('addNetwork', {
        name: name.trim(),
        chainId: Number(chainId),
        source,
        ...(source === 'aggregator'
          ? { aggregatorUrl: aggregatorUrl.trim() }
          : { gammaUrl: gammaUrl.trim(), dataUrl: dataUrl.trim() }),
        clobUrl: clobUrl.trim(),
        rpcUrl: rpcUrl.trim(),
        wsUrl: wsUrl.trim() || undefined,
        orderVersion,
      });
      await useSession.getState().refreshNetworks();
      useSession.getState().notify('success', `${added.name} added: switch to it from the network list.`);
      onClose();
    } catch (failure) {
      setError(messageOf(failure));
      setBusy(false);
    }
  }

  const blocked =
    name.trim().length === 0
      ? 'Name the network.'
      : !/^\d{1,13}$/.test(chainId.trim()) || Number(chainId) <= 0
        ? 'The chain id is a positive whole number (137 for Polygon).'
        : source === 'aggregator' && (!aggregatorUrl.trim() || !clobUrl.trim() || !rpcUrl.trim())
          ? 'The aggregator, exchange and RPC URLs are all needed.'
          : source === 'polymarket' && (!gammaUrl.trim() || !dataUrl.trim() || !clobUrl.trim() || !rpcUrl.trim())
            ? 'The Gamma, Data API, exchange and RPC URLs are all needed.'
            : busy
              ? 'Adding…'
              : undefined;

  return (
    <Dialog title="Add a custom network" testId="add-network-dialog" onClose={onClose}>
      <form className="wallet-form" onSubmit={(e) => void add(e)}>
        <TextField label="Name" value={name} onChange={setName} testId="network-name-input" />
        <TextField
          label="Chain id"
          value={chainId}
          onChange={setChainId}
          testId="network-chain-input"
          inputMode="numeric"
        />
        <div className="field">
          <label htmlFor="market-source">Markets from</label>
          <select
            id="market-source"
            data-testid="network-source-select"
            value={source}
            onChange={(e) => setSource(e.target.value as MarketSourceName)}
          >
            <option value="polymarket">Polymarket directly (Gamma and Data API)</option>
            <option value="aggregator">An aggregator</option>
          </select>
        </div>
        {source === 'aggregator' ? (
          <TextField
            label="Aggregator URL"
            value={aggregatorUrl}
            onChange={setAggregatorUrl}
            placeholder="https://…"
            inputMode="url"
          />
        ) : (
          <>
            <TextField
              label="Gamma API URL"
              value={gammaUrl}
              onChange={setGammaUrl}
              placeholder="https://…"
              inputMode="url"
            />
            <TextField
              label="Data API URL"
              value={dataUrl}
              onChange={setDataUrl}
              placeholder="https://…"
              inputMode="url"
            />
          </>
        )}
        <TextField
          label="Exchange (CLOB) URL"
          value={clobUrl}
          onChange={setClobUrl}
          placeholder="https://…"
          inputMode="url"
        />
        <TextField label="RPC URL" value={rpcUrl} onChange={setRpcUrl} placeholder="https://…" inputMode="url" />
        <TextField
          label="Exchange WebSocket URL (optional)"
          value={wsUrl}
          onChange={setWsUrl}
          placeholder="wss://…"
          inputMode="url"
        />
        <div className="field">
          <label htmlFor="order-version">Order format</label>
          <select
            id="order-version"
            value={orderVersion}
            onChange={(e) => setOrderVersion(Number(e.target.value) as 1 | 2 | 3)}
          >
            <option value={1}>Version 1 (the original order format)</option>
            <option value={2}>Version 2 (Polymarket since 2026-04-28)</option>
            <option value={3}>Version 3</option>
          </select>
        </div>
        <ErrorLine message={error} />
        <div className="row dialog-actions">
          <button type="button" className="ghost" onClick={onClose}>
            Cancel
          </button>
          <button
            type="submit"
            className="primary"
            data-testid="network-add-submit"
            disabled={blocked !== undefined}
            title={blocked ?? 'Remember this network'}
          >
            Add
          </button>
        </div>
      </form>
    </Dialog>
  );
}
