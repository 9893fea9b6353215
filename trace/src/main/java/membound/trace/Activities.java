package membound.trace;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The timed work of one rank, column by column: each activity (a GPU kernel, copy or memset; or, in a trace with
 * no GPU events, the exclusive time of a CPU operator) with its start, duration, the time it was launched on the
 * CPU, its stream (or CPU thread), its class, its names, and the FLOPs and bytes its operator's input shapes give
 * (NaN where the trace has no shapes). Columns of primitives, not an object per activity: a 2 GB trace holds
 * millions of kernels and must fit in a few hundred MiB of heap.
 */
public final class Activities {

    private long[] startNs = new long[1024];
    private long[] durationNs = new long[1024];
    private long[] launchNs = new long[1024];
    private int[] stream = new int[1024];
    private int[] nameId = new int[1024];
    private int[] operatorId = new int[1024];
    private byte[] traceClass = new byte[1024];
    private double[] flops = new double[1024];
    private double[] bytes = new double[1024];
    private byte[] precision = new byte[1024];
    private int size;

    private final List<String> names = new ArrayList<>();
    private final Map<String, Integer> nameIds = new HashMap<>();

    private static final TraceClass[] CLASSES = TraceClass.values();

    /** The id of {@code name} in this rank's name table, added if new. */
    public int intern(String name) {
        Integer id = nameIds.get(name);
        if (id != null) {
            return id;
        }
        names.add(name);
        nameIds.put(name, names.size() - 1);
        return names.size() - 1;
    }

    public String name(int id) {
        return id < 0 ? null : names.get(id);
    }

    /**
     * Adds one activity.
     *
     * @param launch when the CPU launched it (ns), or {@code start} where the trace does not link it
     * @param operator the launching operator's name id, or -1
     * @param precisionOrdinal the {@link membound.vocabulary.Precision} ordinal its FLOPs ran in, or -1
     */
    public void add(long start, long duration, long launch, int streamId, int name, int operator, TraceClass cls,
                    double flopCount, double byteCount, int precisionOrdinal) {
        if (duration < 0) {
            throw new IllegalArgumentException("duration must not be negative: durationNs=" + duration);
        }
        if (size == startNs.length) {
            int n = size * 2;
            startNs = Arrays.copyOf(startNs, n);
            durationNs = Arrays.copyOf(durationNs, n);
            launchNs = Arrays.copyOf(launchNs, n);
            stream = Arrays.copyOf(stream, n);
            nameId = Arrays.copyOf(nameId, n);
            operatorId = Arrays.copyOf(operatorId, n);
            traceClass = Arrays.copyOf(traceClass, n);
            flops = Arrays.copyOf(flops, n);
            bytes = Arrays.copyOf(bytes, n);
            precision = Arrays.copyOf(precision, n);
        }
        startNs[size] = start;
        durationNs[size] = duration;
        launchNs[size] = launch;
        stream[size] = streamId;
        nameId[size] = name;
        operatorId[size] = operator;
        traceClass[size] = (byte) cls.ordinal();
        flops[size] = flopCount;
        bytes[size] = byteCount;
        precision[size] = (byte) precisionOrdinal;
        size++;
    }

    public int size() {
        return size;
    }

    public long startNs(int i) {
        return startNs[i];
    }

    public long durationNs(int i) {
        return durationNs[i];
    }

    public long endNs(int i) {
        return startNs[i] + durationNs[i];
    }

    public long launchNs(int i) {
        return launchNs[i];
    }

    public int stream(int i) {
        return stream[i];
    }

    public String name(int i, boolean operator) {
        return name(operator ? operatorId[i] : nameId[i]);
    }

    public String kernelName(int i) {
        return names.get(nameId[i]);
    }

    /** The launching operator's name, or null where the trace does not link one. */
    public String operatorName(int i) {
        return name(operatorId[i]);
    }

    public TraceClass traceClass(int i) {
        return CLASSES[traceClass[i]];
    }

    /** FLOPs from the operator's shapes, shared out over its kernels by time; NaN without shapes. */
    public double flops(int i) {
        return flops[i];
    }

    /** Bytes read and written from the operator's shapes, shared out over its kernels by time; NaN without shapes. */
    public double bytes(int i) {
        return bytes[i];
    }

    public int precisionOrdinal(int i) {
        return precision[i];
    }

    /** Replaces the cost of activity {@code i} (an operator's cost shared out over its kernels). */
    void setCost(int i, double flopCount, double byteCount) {
        flops[i] = flopCount;
        bytes[i] = byteCount;
    }
}
