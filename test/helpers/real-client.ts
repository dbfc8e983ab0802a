/**
 * The time budget of a test that drives a real agent CLI or client. On a busy 2-core machine with empty
 * caches they spend most of a run waiting, not computing: Copilot CLI alone waits about 10 s on network
 * attempts that go nowhere here. 20 s (the suite's default) failed there; this holds with room to spare.
 */
export const realClientTest = { timeout: 120_000 } as const;
