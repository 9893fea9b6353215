package membound.trace;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import membound.trace.StepBreakdown.ClassCost;
import membound.trace.StepBreakdown.TopActivity;
import membound.vocabulary.Precision;

/**
 * Breaks each step of a rank down: every activity goes to the step its launch fell in (a kernel launched in step 4
 * that ran into step 5 is step 4's), then per step the wall, busy and idle time, the time of each class summed over
 * streams and as the union across them, how much communication ran under other work, and the longest activities.
 */
public final class TraceAnalysis {

    /** How many activity names each step lists, longest first. */
    public static final int TOP_ACTIVITIES = 5;

    private static final double NS = 1e-9;

    private TraceAnalysis() {
    }

    public static RankSummary summarise(RankTrace trace) {
        List<StepRange> steps = trace.steps();
        Activities a = trace.activities();
        List<List<Integer>> members = new ArrayList<>();
        for (int s = 0; s < steps.size(); s++) {
            members.add(new ArrayList<>());
        }
        for (int i = 0; i < a.size(); i++) {
            int s = TraceAssembly.stepOf(steps, a.launchNs(i));
            if (s < 0) {
                s = TraceAssembly.stepOf(steps, a.startNs(i));
            }
            if (s >= 0) {
                members.get(s).add(i);
            }
        }
        List<StepBreakdown> out = new ArrayList<>();
        for (int s = 0; s < steps.size(); s++) {
            out.add(step(steps.get(s), members.get(s), a, trace.gpu()));
        }
        return new RankSummary(trace, out);
    }

    static StepBreakdown step(StepRange range, List<Integer> ids, Activities a, boolean gpu) {
        Map<TraceClass, Double> classSeconds = new EnumMap<>(TraceClass.class);
        Map<TraceClass, List<Integer>> byClass = new EnumMap<>(TraceClass.class);
        double activity = 0;
        double kernels = 0;
        Map<String, double[]> byName = new HashMap<>();
        Map<String, Object[]> nameInfo = new HashMap<>();
        Map<TraceClass, double[]> costs = new EnumMap<>(TraceClass.class);
        Map<TraceClass, Map<Precision, Double>> precisionSeconds = new EnumMap<>(TraceClass.class);
        Map<Integer, Double> streams = new java.util.TreeMap<>();
        for (int i : ids) {
            TraceClass c = a.traceClass(i);
            double seconds = a.durationNs(i) * NS;
            classSeconds.merge(c, seconds, Double::sum);
            byClass.computeIfAbsent(c, k -> new ArrayList<>()).add(i);
            activity += seconds;
            streams.merge(a.stream(i), seconds, Double::sum);
            if (gpu && c != TraceClass.MEMCPY) {
                kernels += seconds;
            }
            String name = a.kernelName(i);
            double[] t = byName.computeIfAbsent(name, k -> new double[2]);
            t[0] += seconds;
            t[1]++;
            nameInfo.putIfAbsent(name, new Object[] {a.operatorName(i), c});
            if (!Double.isNaN(a.bytes(i))) {
                double[] k = costs.computeIfAbsent(c, x -> new double[3]);
                k[0] += a.flops(i);
                k[1] += a.bytes(i);
                k[2] += seconds;
                if (a.precisionOrdinal(i) >= 0) {
                    precisionSeconds.computeIfAbsent(c, x -> new EnumMap<>(Precision.class))
                            .merge(Precision.values()[a.precisionOrdinal(i)], seconds, Double::sum);
                }
            }
        }
        Map<TraceClass, Double> unions = new EnumMap<>(TraceClass.class);
        for (Map.Entry<TraceClass, List<Integer>> e : byClass.entrySet()) {
            unions.put(e.getKey(), unionNs(e.getValue(), a) * NS);
        }
        double busy = unionNs(ids, a) * NS;
        List<Integer> others = new ArrayList<>();
        for (int i : ids) {
            if (a.traceClass(i) != TraceClass.COMMUNICATION) {
                others.add(i);
            }
        }
        double comm = unions.getOrDefault(TraceClass.COMMUNICATION, 0.0);
        double overlapped = comm == 0 ? 0 : Math.max(0, comm + unionNs(others, a) * NS - busy);
        List<TopActivity> top = byName.entrySet().stream()
                .sorted(Comparator.comparingDouble((Map.Entry<String, double[]> e) -> -e.getValue()[0])
                        .thenComparing(Map.Entry::getKey))
                .limit(TOP_ACTIVITIES)
                .map(e -> new TopActivity(e.getKey(), (String) nameInfo.get(e.getKey())[0],
                        (TraceClass) nameInfo.get(e.getKey())[1], (int) e.getValue()[1], e.getValue()[0]))
                .toList();
        Map<TraceClass, ClassCost> classCosts = new EnumMap<>(TraceClass.class);
        costs.forEach((c, k) -> {
            Map<Precision, Double> ps = precisionSeconds.get(c);
            Precision main = ps == null ? null
                    : ps.entrySet().stream().max(Map.Entry.comparingByValue()).map(Map.Entry::getKey).orElse(null);
            classCosts.put(c, new ClassCost(k[0], k[1], k[2], main));
        });
        // A step is done when the last of the work launched in it is: GPU work lags the CPU range that launched it.
        long end = range.endNs();
        for (int i : ids) {
            end = Math.max(end, a.endNs(i));
        }
        double wall = (end - range.startNs()) * NS;
        return new StepBreakdown(range.name(), wall, range.durationNs() * NS, busy, Math.max(0, wall - busy), ids.size(), activity, kernels, classSeconds,
                unions, streams, overlapped, top, classCosts);
    }

    /** The length of the union of the activities' intervals, in ns. */
    static long unionNs(List<Integer> ids, Activities a) {
        if (ids.isEmpty()) {
            return 0;
        }
        long[][] spans = new long[ids.size()][];
        for (int k = 0; k < ids.size(); k++) {
            int i = ids.get(k);
            spans[k] = new long[] {a.startNs(i), a.endNs(i)};
        }
        Arrays.sort(spans, Comparator.comparingLong(x -> x[0]));
        long total = 0;
        long from = spans[0][0];
        long to = spans[0][1];
        for (int k = 1; k < spans.length; k++) {
            if (spans[k][0] > to) {
                total += to - from;
                from = spans[k][0];
                to = spans[k][1];
            } else {
                to = Math.max(to, spans[k][1]);
            }
        }
        return total + (to - from);
    }

    /**
     * The straggler among ranks: the one whose mean step is longest, and how much longer than the median rank's it
     * is; null with fewer than two ranks.
     */
    public static Straggler straggler(List<RankSummary> ranks) {
        if (ranks.size() < 2) {
            return null;
        }
        double[] means = ranks.stream().mapToDouble(RankSummary::meanStepSeconds).sorted().toArray();
        double median = means.length % 2 == 1 ? means[means.length / 2]
                : (means[means.length / 2 - 1] + means[means.length / 2]) / 2;
        RankSummary slowest = ranks.stream().max(Comparator.comparingDouble(RankSummary::meanStepSeconds)).orElseThrow();
        return new Straggler(slowest.trace().label(), slowest.trace().file(), slowest.meanStepSeconds(), median,
                (slowest.meanStepSeconds() - median) / median);
    }

    /** The slowest rank and how far it is from the median. */
    public record Straggler(String rank, String file, double meanStepSeconds, double medianStepSeconds,
                            double slowerThanMedian) {
    }
}
