// The sandbox's funded test wallet, read from its profile's testWallets for importSandboxWallet: a first run can
// trade at once, and the key stays in main (the renderer never sees it).
import { z } from 'zod';

const TestWallets = z.object({
  testWallets: z
    .array(
      z.object({
        address: z.string().regex(/^0x[0-9a-fA-F]{40}$/),
        privateKey: z.string().regex(/^0x[0-9a-fA-F]{64}$/),
      }),
    )
    .min(1),
});

/** The profile's first test wallet, or undefined when it names none (any network but the sandbox). */
export function sandboxTestWallet(raw: unknown): { address: string; privateKey: string } | undefined {
  const parsed = TestWallets.safeParse(raw);
  return parsed.success ? parsed.data.testWallets[0] : undefined;
}
