package membound.trace;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

import membound.trace.classify.KernelClassifier;
import membound.trace.classify.OperatorCosts;

/**
 * What a reader collects while it streams a trace (GPU activities, CUDA runtime launches, CPU operators with the cost
 * of their shapes, step and optimizer ranges) and, once the file is read, the {@link RankTrace} it makes: each GPU
 * activity linked to the operator that launched it (by external id, else through the launch's correlation id),
 * classified, given its share of the operator's cost, and stamped with the CPU time it was launched at, which is what
 * puts it in a step. A trace with no GPU activity becomes the exclusive time of its CPU operators instead.
 */
public final class TraceAssembly {

    /** What a GPU activity is. */
    public enum GpuKind { KERNEL, MEMCPY, MEMSET }

    private static final String OPTIMIZER_STEP = "Optimizer.step";

    private final Activities out = new Activities();

    // GPU activities as read
    private long[] gStart = new long[256];
    private long[] gDur = new long[256];
    private int[] gStream = new int[256];
    private int[] gName = new int[256];
    private long[] gExternal = new long[256];
    private long[] gCorrelation = new long[256];
    private byte[] gKind = new byte[256];
    private int gSize;

    // CUDA runtime launches
    private long[] rStart = new long[256];
    private long[] rExternal = new long[256];
    private int[] rThread = new int[256];
    private int rSize;
    private final LongIntMap runtimeByCorrelation = new LongIntMap();

    // CPU operators
    private long[] oStart = new long[256];
    private long[] oDur = new long[256];
    private int[] oName = new int[256];
    private int[] oThread = new int[256];
    private double[] oFlops = new double[256];
    private double[] oBytes = new double[256];
    private byte[] oPrecision = new byte[256];
    private int oSize;
    private final LongIntMap operatorByExternal = new LongIntMap();

    private final List<StepRange> steps = new ArrayList<>();
    private final List<long[]> optimizerRanges = new ArrayList<>();
    private long firstNs = Long.MAX_VALUE;
    private long lastNs = Long.MIN_VALUE;

    public void gpu(GpuKind kind, long startNs, long durationNs, int stream, String name, long externalId,
                    long correlationId) {
        if (gSize == gStart.length) {
            int n = gSize * 2;
            gStart = Arrays.copyOf(gStart, n);
            gDur = Arrays.copyOf(gDur, n);
            gStream = Arrays.copyOf(gStream, n);
            gName = Arrays.copyOf(gName, n);
            gExternal = Arrays.copyOf(gExternal, n);
            gCorrelation = Arrays.copyOf(gCorrelation, n);
            gKind = Arrays.copyOf(gKind, n);
        }
        gStart[gSize] = startNs;
        gDur[gSize] = Math.max(0, durationNs);
        gStream[gSize] = stream;
        gName[gSize] = out.intern(name == null ? kind.name().toLowerCase(java.util.Locale.ROOT) : name);
        gExternal[gSize] = externalId;
        gCorrelation[gSize] = correlationId;
        gKind[gSize] = (byte) kind.ordinal();
        gSize++;
        seen(startNs, durationNs);
    }

    public void runtime(long startNs, long durationNs, int thread, long correlationId, long externalId) {
        if (rSize == rStart.length) {
            rStart = Arrays.copyOf(rStart, rSize * 2);
            rExternal = Arrays.copyOf(rExternal, rSize * 2);
            rThread = Arrays.copyOf(rThread, rSize * 2);
        }
        rStart[rSize] = startNs;
        rExternal[rSize] = externalId;
        rThread[rSize] = thread;
        runtimeByCorrelation.putIfAbsent(correlationId, rSize);
        rSize++;
        seen(startNs, durationNs);
    }

    /** A CPU operator or annotation; ProfilerStep#N and Optimizer.step ranges are taken as steps and ranges. */
    public void operator(String name, long startNs, long durationNs, int thread, long externalId,
                         OperatorCosts.Cost cost) {
        seen(startNs, durationNs);
        if (name.startsWith("ProfilerStep#")) {
            steps.add(new StepRange(name, startNs, startNs + Math.max(0, durationNs)));
            return;
        }
        if (name.startsWith(OPTIMIZER_STEP)) {
            optimizerRanges.add(new long[] {startNs, startNs + durationNs});
        }
        if (oSize == oStart.length) {
            int n = oSize * 2;
            oStart = Arrays.copyOf(oStart, n);
            oDur = Arrays.copyOf(oDur, n);
            oName = Arrays.copyOf(oName, n);
            oThread = Arrays.copyOf(oThread, n);
            oFlops = Arrays.copyOf(oFlops, n);
            oBytes = Arrays.copyOf(oBytes, n);
            oPrecision = Arrays.copyOf(oPrecision, n);
        }
        oStart[oSize] = startNs;
        oDur[oSize] = Math.max(0, durationNs);
        oName[oSize] = out.intern(name);
        oThread[oSize] = thread;
        oFlops[oSize] = cost.flops();
        oBytes[oSize] = cost.bytes();
        oPrecision[oSize] = (byte) (cost.precision() == null ? -1 : cost.precision().ordinal());
        if (externalId > 0) {
            operatorByExternal.putIfAbsent(externalId, oSize);
        }
        oSize++;
    }

    /** A step marked some other way (an NVTX range of an Nsight Systems export). */
    public void step(StepRange step) {
        steps.add(step);
    }

    private void seen(long startNs, long durationNs) {
        firstNs = Math.min(firstNs, startNs);
        lastNs = Math.max(lastNs, startNs + Math.max(0, durationNs));
    }

    private boolean shapes;

    /** An operator came with its input shapes (a trace may record them without saying record_shapes). */
    public void sawShapes() {
        shapes = true;
    }

    public boolean shapesSeen() {
        return shapes;
    }

    public boolean empty() {
        return gSize == 0 && oSize == 0 && steps.isEmpty();
    }

    /** The trace read; {@code notes} is added to. */
    public RankTrace build(String file, String format, int rank, int worldSize, List<String> devices, boolean shapes,
                           List<String> notes) {
        List<String> allNotes = new ArrayList<>(notes);
        steps.sort(Comparator.comparingLong(StepRange::startNs));
        optimizerRanges.sort(Comparator.comparingLong(r -> r[0]));
        List<StepRange> finalSteps = new ArrayList<>(steps);
        if (finalSteps.isEmpty()) {
            allNotes.add("no steps marked (no ProfilerStep#N or step range): the whole trace is read as one step");
            finalSteps.add(new StepRange("whole trace", firstNs == Long.MAX_VALUE ? 0 : firstNs,
                    lastNs == Long.MIN_VALUE ? 0 : lastNs));
        }
        boolean gpu = gSize > 0;
        if (gpu) {
            linkGpu();
        } else {
            allNotes.add("no GPU events in the trace: the CPU side is reported, each class the exclusive time of "
                    + "the CPU operators in it");
            cpuSegments(finalSteps);
        }
        return new RankTrace(file, format, rank, worldSize, devices, gpu, shapes, finalSteps, out, allNotes);
    }

    private void linkGpu() {
        int[] operator = new int[gSize];
        long[] launch = new long[gSize];
        double[] operatorGpuNs = new double[oSize];
        OperatorIndex enclosing = null;
        for (int i = 0; i < gSize; i++) {
            int op = gExternal[i] > 0 ? operatorByExternal.get(gExternal[i]) : -1;
            int rt = gCorrelation[i] > 0 ? runtimeByCorrelation.get(gCorrelation[i]) : -1;
            if (op < 0 && rt >= 0 && rExternal[rt] > 0) {
                op = operatorByExternal.get(rExternal[rt]);
            }
            if (rt >= 0 && (op < 0 || !(oStart[op] <= rStart[rt] && rStart[rt] <= oStart[op] + oDur[op]))) {
                // No external id, or one that names an operator not running at the launch (a rewritten trace):
                // the launching operator is the innermost one running on the launch's thread when it launched.
                if (enclosing == null) {
                    enclosing = new OperatorIndex();
                }
                int around = enclosing.innermost(rThread[rt], rStart[rt]);
                if (around >= 0) {
                    op = around;
                }
            }
            operator[i] = op;
            launch[i] = rt >= 0 ? rStart[rt] : op >= 0 ? oStart[op] : gStart[i];
            if (op >= 0) {
                operatorGpuNs[op] += gDur[i];
            }
        }
        java.util.Map<Long, TraceClass> classes = new java.util.HashMap<>();
        for (int i = 0; i < gSize; i++) {
            int op = operator[i];
            GpuKind kind = GpuKind.values()[gKind[i]];
            String opName = op >= 0 ? out.name(oName[op]) : null;
            boolean optimizer = insideOptimizer(launch[i]);
            int kernelName = gName[i];
            TraceClass cls = kind != GpuKind.KERNEL ? TraceClass.MEMCPY
                    : classes.computeIfAbsent(((long) kernelName << 33) | ((long) (op >= 0 ? oName[op] + 1 : 0) << 1)
                            | (optimizer ? 1 : 0), k -> KernelClassifier.classify(out.name(kernelName), opName, optimizer));
            double share = op >= 0 && operatorGpuNs[op] > 0 ? gDur[i] / operatorGpuNs[op] : Double.NaN;
            double flops = op >= 0 ? oFlops[op] * share : Double.NaN;
            double bytes = op >= 0 ? oBytes[op] * share : Double.NaN;
            out.add(gStart[i], gDur[i], launch[i], gStream[i], gName[i], op >= 0 ? oName[op] : -1, cls, flops, bytes,
                    op >= 0 ? oPrecision[op] : -1);
        }
    }

    /** The CPU operators of each thread by start time, to find the one running at an instant. */
    private final class OperatorIndex {
        private final java.util.Map<Integer, int[]> byThread = new java.util.HashMap<>();

        OperatorIndex() {
            java.util.Map<Integer, List<Integer>> lists = new java.util.HashMap<>();
            for (int i = 0; i < oSize; i++) {
                lists.computeIfAbsent(oThread[i], k -> new ArrayList<>()).add(i);
            }
            lists.forEach((thread, ids) -> {
                int[] sorted = ids.stream().mapToInt(Integer::intValue).toArray();
                sortByStart(sorted);
                byThread.put(thread, sorted);
            });
        }

        /** The innermost operator on {@code thread} running at {@code ns}, or -1. */
        int innermost(int thread, long ns) {
            int[] ops = byThread.get(thread);
            if (ops == null) {
                return -1;
            }
            int lo = 0;
            int hi = ops.length - 1;
            int last = -1;
            while (lo <= hi) {
                int mid = (lo + hi) >>> 1;
                if (oStart[ops[mid]] <= ns) {
                    last = mid;
                    lo = mid + 1;
                } else {
                    hi = mid - 1;
                }
            }
            // Nested operators start later than what holds them: the latest start that still covers ns is innermost.
            for (int k = last, walked = 0; k >= 0 && walked < 256; k--, walked++) {
                int op = ops[k];
                if (oStart[op] + oDur[op] >= ns) {
                    return op;
                }
            }
            return -1;
        }
    }

    /** Sorts operator ids by start time, longer first among equal starts (an enclosing operator before its child). */
    private void sortByStart(int[] ids) {
        Integer[] boxed = new Integer[ids.length];
        for (int k = 0; k < ids.length; k++) {
            boxed[k] = ids[k];
        }
        Arrays.sort(boxed, Comparator.<Integer>comparingLong(i -> oStart[i])
                .thenComparing(Comparator.<Integer>comparingLong(i -> oDur[i]).reversed()));
        for (int k = 0; k < ids.length; k++) {
            ids[k] = boxed[k];
        }
    }

    private boolean insideOptimizer(long ns) {
        if (optimizerRanges.isEmpty()) {
            return false;
        }
        int lo = 0;
        int hi = optimizerRanges.size() - 1;
        int found = -1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            if (optimizerRanges.get(mid)[0] <= ns) {
                found = mid;
                lo = mid + 1;
            } else {
                hi = mid - 1;
            }
        }
        return found >= 0 && ns < optimizerRanges.get(found)[1];
    }

    /**
     * The CPU side of a trace without GPU events: each thread's time split into the exclusive time of the innermost
     * operator running, classed by the nearest enclosing operator the classifier knows. Where the job marked no
     * Optimizer.step range (torch 1.13's CPU profiler marks none), the top-level operators of a step that start
     * after its last backward ({@code autograd::engine::evaluate_function}) ends are the optimizer's.
     */
    private void cpuSegments(List<StepRange> stepList) {
        Integer[] order = new Integer[oSize];
        for (int i = 0; i < oSize; i++) {
            order[i] = i;
        }
        Arrays.sort(order, Comparator.<Integer>comparingInt(i -> oThread[i]).thenComparingLong(i -> oStart[i])
                .thenComparing(Comparator.<Integer>comparingLong(i -> oDur[i]).reversed()));
        long[] backwardEnd = new long[stepList.size()];
        Arrays.fill(backwardEnd, Long.MAX_VALUE);
        if (optimizerRanges.isEmpty()) {
            for (int i = 0; i < oSize; i++) {
                if (out.name(oName[i]).startsWith("autograd::engine::evaluate_function")) {
                    int s = stepOf(stepList, oStart[i]);
                    if (s >= 0) {
                        long end = oStart[i] + oDur[i];
                        backwardEnd[s] = backwardEnd[s] == Long.MAX_VALUE ? end : Math.max(backwardEnd[s], end);
                    }
                }
            }
        }
        TraceClass[] own = new TraceClass[oSize];
        for (int i = 0; i < oSize; i++) {
            own[i] = KernelClassifier.ofOperator(out.name(oName[i]));
        }
        int[] stack = new int[64];
        int depth = 0;
        int thread = Integer.MIN_VALUE;
        long cursor = 0;
        boolean[] optimizer = new boolean[oSize];
        for (int k = 0; k <= oSize; k++) {
            int next = k < oSize ? order[k] : -1;
            boolean newThread = next < 0 || oThread[next] != thread;
            long until = newThread ? Long.MAX_VALUE : oStart[next];
            // Close the operators that end before the next one starts, emitting the time each had to itself.
            while (depth > 0) {
                int top = stack[depth - 1];
                long end = oStart[top] + oDur[top];
                if (end > until) {
                    break;
                }
                emit(top, stack, depth, cursor, end, own, optimizer);
                cursor = Math.max(cursor, end);
                depth--;
            }
            if (next < 0) {
                break;
            }
            if (newThread) {
                thread = oThread[next];
                cursor = oStart[next];
                depth = 0;
            }
            if (depth > 0) {
                emit(stack[depth - 1], stack, depth, cursor, oStart[next], own, optimizer);
            }
            cursor = Math.max(cursor, oStart[next]);
            if (depth == 0 && optimizerRanges.isEmpty()) {
                int s = stepOf(stepList, oStart[next]);
                optimizer[next] = s >= 0 && oStart[next] >= backwardEnd[s]
                        && !out.name(oName[next]).contains("zero_grad");
            } else if (insideOptimizer(oStart[next])) {
                optimizer[next] = true;
            }
            if (depth == stack.length) {
                stack = Arrays.copyOf(stack, depth * 2);
            }
            stack[depth++] = next;
        }
    }

    /** The exclusive time [from, to) of {@code stack[depth-1]}, classed by its nearest known ancestor. */
    private void emit(int top, int[] stack, int depth, long from, long to, TraceClass[] own, boolean[] optimizer) {
        if (to <= from) {
            return;
        }
        TraceClass cls = null;
        int by = -1;
        for (int d = 0; d < depth; d++) {
            if (optimizer[stack[d]]) {
                cls = TraceClass.OPTIMIZER;
                by = stack[d];
                break;
            }
        }
        if (cls == null) {
            for (int d = depth - 1; d >= 0; d--) {
                if (own[stack[d]] != null) {
                    cls = own[stack[d]];
                    by = stack[d];
                    break;
                }
            }
        }
        if (cls == null) {
            cls = TraceClass.OTHER;
        }
        double share = by >= 0 && oDur[by] > 0 ? (double) (to - from) / oDur[by] : Double.NaN;
        out.add(from, to - from, from, oThread[top], oName[top], by >= 0 ? oName[by] : -1, cls,
                by >= 0 ? oFlops[by] * share : Double.NaN, by >= 0 ? oBytes[by] * share : Double.NaN,
                by >= 0 ? oPrecision[by] : -1);
    }

    /** The index of the step that holds {@code ns}, or -1; steps are sorted and do not overlap. */
    public static int stepOf(List<StepRange> steps, long ns) {
        int lo = 0;
        int hi = steps.size() - 1;
        int found = -1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            if (steps.get(mid).startNs() <= ns) {
                found = mid;
                lo = mid + 1;
            } else {
                hi = mid - 1;
            }
        }
        return found >= 0 && steps.get(found).contains(ns) ? found : -1;
    }
}
