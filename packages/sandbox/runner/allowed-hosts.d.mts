/** A host as asked (any case, a trailing dot, IPv6 in brackets or not) in the one form patterns are compared with. */
export declare function normalizeHost(host: string): string;
/** Why `pattern` cannot be an entry of `network.allow`, or undefined when it can. */
export declare function patternProblem(pattern: unknown): string | undefined;
/** Whether `host` may be reached under `patterns` (exact, or `*.suffix` for subdomains; IP addresses only when listed). */
export declare function isAllowedHost(host: string, patterns: readonly string[]): boolean;
