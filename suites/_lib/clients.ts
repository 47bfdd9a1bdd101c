// Identity of the object model's handles. (More clients in a case: ctx.newClient, which honours maxLiveClients.)

/** Identity of an owned PJRT object (devices and memories are compared by pointer). */
export const same = (a: { ptr: bigint }, b: { ptr: bigint }): boolean => a.ptr === b.ptr;
