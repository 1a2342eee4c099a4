// The pseudonym a trader profile shows when it has no name: stable per address and readable, as Polymarket
// gives every wallet one; shared by the chain's trader directory and the server's empty profiles.

const ADJECTIVES = ['Bright', 'Quiet', 'Swift', 'Calm', 'Bold', 'Keen', 'Wise', 'Lucky'];
const ANIMALS = ['Owl', 'Fox', 'Heron', 'Lynx', 'Otter', 'Wren', 'Hare', 'Seal'];

/** A stable, readable pseudonym from an address, as Polymarket gives profiles without a name. */
export function pseudonymOf(address: string): string {
  const n = Number.parseInt(address.slice(2, 10), 16);
  return `${ADJECTIVES[n % ADJECTIVES.length]}-${ANIMALS[Math.floor(n / ADJECTIVES.length) % ANIMALS.length]}`;
}
