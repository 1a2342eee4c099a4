// Preload: will expose `window.terminal`, built from the shared IPC contract, and nothing else (issue 7).
// Until the contract exists it exposes nothing at all.
export {};
