export const GET_MATCH_RESULT: unique symbol = Symbol()
