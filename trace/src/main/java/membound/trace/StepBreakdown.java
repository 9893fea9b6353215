package membound.trace;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * Where one step's time went on one rank.
 *
 * @param wallSeconds from the step's start until the later of its marked end and the end of the last work launched
 *                    in it (GPU work lags the CPU range that launched it)
 * @param markedSeconds the step as the job marked it (ProfilerStep#N's CPU range, an NVTX range)
 * @param busySeconds time at least one stream (a CPU trace: one thread) was busy: the union across streams
 * @param idleSeconds wall time with nothing running: wall minus busy, at least 0
 * @param activityCount how many activities (kernels, copies; CPU operator segments) the step holds
 * @param activitySeconds the activities' durations summed over streams (more than busy where streams overlap)
 * @param kernelSeconds GPU kernels' durations summed (copies and memsets left out); 0 in a CPU trace
 * @param classSeconds each class's activity time, summed over streams
 * @param classUnionSeconds each class's time as the union across streams
 * @param streamSeconds each stream's (a CPU trace: each thread's) activity time, by its id
 * @param communicationOverlappedSeconds communication time during which other work ran on another stream
 * @param top the activities by name that took longest in the step, longest first
 * @param costs per class: the FLOPs, bytes and seconds of the activities whose operator's shapes gave a cost
 */
public record StepBreakdown(String name, double wallSeconds, double markedSeconds, double busySeconds,
                            double idleSeconds, int activityCount, double activitySeconds, double kernelSeconds,
                            Map<TraceClass, Double> classSeconds,
                            Map<TraceClass, Double> classUnionSeconds, Map<Integer, Double> streamSeconds,
                            double communicationOverlappedSeconds,
                            List<TopActivity> top, Map<TraceClass, ClassCost> costs) {

    public StepBreakdown {
        classSeconds = copy(classSeconds);
        classUnionSeconds = copy(classUnionSeconds);
        streamSeconds = java.util.Collections.unmodifiableMap(new java.util.TreeMap<>(streamSeconds));
        top = List.copyOf(top);
        costs = costs.isEmpty() ? Map.of() : java.util.Collections.unmodifiableMap(new EnumMap<>(costs));
    }

    private static Map<TraceClass, Double> copy(Map<TraceClass, Double> m) {
        Map<TraceClass, Double> all = new EnumMap<>(TraceClass.class);
        for (TraceClass c : TraceClass.values()) {
            all.put(c, m.getOrDefault(c, 0.0));
        }
        return java.util.Collections.unmodifiableMap(all);
    }

    /** One activity name's time in the step. */
    public record TopActivity(String name, String operator, TraceClass traceClass, int count, double seconds) {
    }

    /**
     * The cost the shapes give a class's activities: FLOPs and bytes, the seconds they took, and the precision
     * most of those seconds ran in (null where none was recorded).
     *
     */
    public record ClassCost(double flops, double bytes, double seconds, membound.vocabulary.Precision precision) {
    }
}
