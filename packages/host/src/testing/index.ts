export { createTestHost } from "./create-test-host.js";
export type { FakeTool, RecordedEvent, TestCallOutcome, TestHost, TestHostOptions } from "./create-test-host.js";
