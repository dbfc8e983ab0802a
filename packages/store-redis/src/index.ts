export { openRedisStore, type RedisStoreLogger, type RedisStoreOptions } from "./redis-store.js";
