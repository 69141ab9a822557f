package io.transnfv.vnf.api;

/** What a table's {@code long} keys encode; decides how state dumps print them. */
public enum KeyKind
{
    /** A folded 5-tuple or bi-flow hash (printed in hex). */
    FLOW,
    /** An IPv4 endpoint packed by {@code FlowKeys.endpoint} (printed ip:port/proto). */
    ENDPOINT,
    /** A host key from {@code FlowKeys.srcHost}/{@code dstHost} (printed as an address). */
    HOST,
    /** A small number: a port, a server index, a slot (printed in decimal). */
    INDEX,
    /** Any other 64-bit key (printed in hex). */
    OPAQUE
}
