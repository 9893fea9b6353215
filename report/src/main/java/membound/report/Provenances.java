package membound.report;

import membound.profile.Provenance;

/** One line per provenance, so every number on the page says where it came from. */
public final class Provenances {

    private Provenances() {
    }

    /** {@code measured: membound benchmarks, kernel StreamBenchmark.triad, file x.jmh.json}. */
    public static String describe(Provenance p) {
        if (p == null) {
            return "no provenance recorded";
        }
        StringBuilder text = new StringBuilder(p.kind().toString()).append(": ").append(p.source());
        if (p.tool() != null && !p.source().contains(p.tool())) {
            text.append(", tool ").append(p.tool());
        }
        if (p.kernel() != null) {
            text.append(", kernel ").append(p.kernel());
        }
        if (p.file() != null) {
            text.append(", file ").append(p.file());
        }
        return text.toString();
    }
}
