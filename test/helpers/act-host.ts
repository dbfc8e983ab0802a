import { createHost, type Host, type HostOptions, type Plugin } from "@toolgate/host";
import { afterEach } from "vitest";

/**
 * Hosts on inline plugins only (no folder, no config file, no logger) with one tool, `act`, that records
 * the arguments it ran with in `ran`. Each host is closed after its test.
 */
export function actHosts(defaults: HostOptions = {}): (plugins: Plugin[], options?: HostOptions) => Promise<{ host: Host; ran: unknown[] }> {
  const hosts: Host[] = [];
  afterEach(async () => {
    await Promise.all(hosts.splice(0).map((host) => host.close()));
  });
  return async (plugins, options = {}) => {
    const ran: unknown[] = [];
    const host = await createHost({
      pluginsDir: false,
      configFile: false,
      logger: false,
      ...defaults,
      tools: { act: { execute: (args) => (ran.push(args), "acted") } },
      plugins,
      ...options,
    });
    hosts.push(host);
    return { host, ran };
  };
}
