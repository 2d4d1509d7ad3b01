/**
 * @module
 * Functions for encoding/decoding UTF8.
 */

export const utf8Encoder: TextEncoder = new TextEncoder()
export const utf8Decoder: TextDecoder = new TextDecoder()
