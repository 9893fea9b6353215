package membound.calibrator.compare;

import java.util.ArrayList;
import java.util.List;
import java.util.SortedMap;
import java.util.TreeSet;

import membound.profile.Profile;

/**
 * Profile B against profile A, figure by figure: the ratio B/A, and a verdict. A difference is called a
 * change ({@code better} or {@code worse}) only when the two measured spreads do not overlap (p5–p95,
 * else worst–best; p50–p90 for latencies); overlapping spreads are {@code within-spread}, and a figure
 * without a spread on either side is {@code no-spread}: its ratio is shown, but it is not called a change.
 *
 * @param a       name of profile A (its file)
 * @param b       name of profile B
 * @param figures one row per key in either profile, sorted by key
 */
public record Comparison(String a, String b, List<Row> figures) {

    public static final String BETTER = "better";
    public static final String WORSE = "worse";
    public static final String WITHIN_SPREAD = "within-spread";
    public static final String NO_SPREAD = "no-spread";
    public static final String ONLY_IN_A = "only-in-a";
    public static final String ONLY_IN_B = "only-in-b";

    /**
     * @param key     the figure
     * @param unit    its unit
     * @param higherIsBetter false for latencies
     * @param valueA  A's typical figure, if A has it
     * @param valueB  B's typical figure, if B has it
     * @param ratio   B / A, when both have it
     * @param verdict better, worse, within-spread, no-spread, only-in-a, only-in-b
     * @param lowA    A's spread, if known
     * @param highA   A's spread, if known
     * @param lowB    B's spread, if known
     * @param highB   B's spread, if known
     */
    public record Row(String key, String unit, boolean higherIsBetter, Double valueA, Double valueB, Double ratio,
                      String verdict, Double lowA, Double highA, Double lowB, Double highB) {
    }

    public static Comparison of(Profile a, String aName, Profile b, String bName) {
        SortedMap<String, Figure> figuresA = Figures.of(a);
        SortedMap<String, Figure> figuresB = Figures.of(b);
        TreeSet<String> keys = new TreeSet<>(figuresA.keySet());
        keys.addAll(figuresB.keySet());
        List<Row> rows = new ArrayList<>();
        for (String key : keys) {
            Figure fa = figuresA.get(key);
            Figure fb = figuresB.get(key);
            if (fa == null || fb == null) {
                Figure f = fa != null ? fa : fb;
                rows.add(new Row(key, f.unit(), f.higherIsBetter(), fa == null ? null : fa.value(),
                        fb == null ? null : fb.value(), null, fa == null ? ONLY_IN_B : ONLY_IN_A,
                        fa == null ? null : fa.low(), fa == null ? null : fa.high(),
                        fb == null ? null : fb.low(), fb == null ? null : fb.high()));
                continue;
            }
            rows.add(new Row(key, fa.unit(), fa.higherIsBetter(), fa.value(), fb.value(), fb.value() / fa.value(),
                    verdict(fa, fb), fa.low(), fa.high(), fb.low(), fb.high()));
        }
        return new Comparison(aName, bName, rows);
    }

    static String verdict(Figure a, Figure b) {
        if (!a.hasSpread() || !b.hasSpread()) {
            return NO_SPREAD;
        }
        boolean bAbove = b.low() > a.high();
        boolean bBelow = b.high() < a.low();
        if (!bAbove && !bBelow) {
            return WITHIN_SPREAD;
        }
        return bAbove == a.higherIsBetter() ? BETTER : WORSE;
    }

    /** Rows with the verdict better or worse. */
    public List<Row> changes() {
        return figures.stream().filter(r -> BETTER.equals(r.verdict()) || WORSE.equals(r.verdict())).toList();
    }
}
