/**
 * @module
 * RegExpRouter for Hono.
 */

export { RegExpRouter } from './router'
export { PreparedRegExpRouter, buildInitParams, serializeInitParams } from './prepared-router'
