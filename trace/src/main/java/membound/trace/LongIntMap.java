package membound.trace;

import java.util.Arrays;

/**
 * A map from long keys (correlation and external ids) to int indexes, open addressing over two arrays: a trace of
 * millions of kernels links each to its launch without boxing a key.
 */
final class LongIntMap {

    private static final long EMPTY = Long.MIN_VALUE;
    private long[] keys = new long[1 << 12];
    private int[] values = new int[1 << 12];
    private int size;

    LongIntMap() {
        Arrays.fill(keys, EMPTY);
    }

    /** Puts {@code key -> value}; the first value for a key is kept (ids are unique in a well-formed trace). */
    void putIfAbsent(long key, int value) {
        if (key == EMPTY) {
            return;
        }
        if (2 * (size + 1) > keys.length) {
            grow();
        }
        int mask = keys.length - 1;
        for (int i = mix(key) & mask; ; i = (i + 1) & mask) {
            if (keys[i] == EMPTY) {
                keys[i] = key;
                values[i] = value;
                size++;
                return;
            }
            if (keys[i] == key) {
                return;
            }
        }
    }

    /** The value of {@code key}, or -1. */
    int get(long key) {
        int mask = keys.length - 1;
        for (int i = mix(key) & mask; ; i = (i + 1) & mask) {
            if (keys[i] == EMPTY) {
                return -1;
            }
            if (keys[i] == key) {
                return values[i];
            }
        }
    }

    private void grow() {
        long[] oldKeys = keys;
        int[] oldValues = values;
        keys = new long[oldKeys.length * 2];
        values = new int[oldKeys.length * 2];
        Arrays.fill(keys, EMPTY);
        size = 0;
        for (int i = 0; i < oldKeys.length; i++) {
            if (oldKeys[i] != EMPTY) {
                putIfAbsent(oldKeys[i], oldValues[i]);
            }
        }
    }

    private static int mix(long key) {
        long h = key * 0x9E3779B97F4A7C15L;
        return (int) (h ^ (h >>> 32));
    }
}
