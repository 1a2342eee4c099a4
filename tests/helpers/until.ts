// Waits, turn by turn of the event loop (not by the clock), until a condition holds: for tests on an injected
// clock, where real timers would never fire the feed's scheduled work but sockets and servers still need turns.
export async function until(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 200_000; i++) {
    if (check()) return;
    await new Promise((resolve) => setImmediate(resolve));
  }
  throw new Error(`never happened: ${what}`);
}
