package membound.model.engine;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

import membound.model.ResourceTable;
import membound.model.decode.WeightScheme;
import membound.model.workload.TensorKind;
import membound.model.workload.Transformer;

/**
 * The GPU kernels an engine launches per decode step, from the committed table {@code engines/kernels.tsv} (each row
 * read from the engine's code, the file and commit in its source column): per layer by weight class and batch band, per
 * mixture-of-experts layer on top, and per step outside the layers. A kernel boundary costs time that no bandwidth
 * term gives (the launch or graph-node dispatch, a short kernel's ramp and tail); the count times the engine's fitted
 * cost per kernel is the decode step's fixed cost ({@code DecodeEstimator}).
 */
public final class EngineKernels {

    private static final String RESOURCE = "/membound/model/engines/kernels.tsv";
    private static final List<Row> TABLE = load();

    /** Weight classes: llama.cpp quantizes the activations before every mat-vec of quantized weights. */
    private static final Set<String> QUANTIZED = Set.of("gguf", "mxfp4", "nvfp4", "int4-grouped");

    /** Kernels of one decode step, and the table rows that gave them. */
    public record Count(double kernels, String source) {
    }

    private record Row(String engine, String part, String weights, int batchFrom, int batchTo, double kernels,
                       String source) {

        boolean matches(String engineId, String p, String weightClass, int batch) {
            return engine.equals(engineId) && part.equals(p) && (weights.equals("any") || weights.equals(weightClass))
                    && batch >= batchFrom && batch <= batchTo;
        }
    }

    private EngineKernels() {
    }

    /** Whether the table counts this engine's kernels. */
    public static boolean counts(String engineId) {
        return TABLE.stream().anyMatch(r -> r.engine().equals(engineId));
    }

    /**
     * The kernels one decode step of {@code batch} sequences launches: layers x the layer count, the mixture-of-experts
     * layers x the MoE addition, plus the step's own; null where the table has no layer row for the engine, weights and
     * batch (the step then has no fixed cost, and the caller says so).
     */
    public static Count perStep(Engine engine, Transformer tf, WeightScheme weights, int batch) {
        WeightScheme resolved = weights.resolve(tf);
        String family = Engine.family(resolved.format(tf.experts().sparse() ? TensorKind.EXPERTS : TensorKind.DENSE_MLP),
                resolved);
        String weightClass = QUANTIZED.contains(family) ? "quantized" : "16-bit";
        Row layer = find(engine.id(), "layer", weightClass, batch);
        if (layer == null) {
            return null;
        }
        Row token = find(engine.id(), "token", weightClass, batch);
        Row moe = tf.experts().sparse() ? find(engine.id(), "moe", weightClass, batch) : null;
        int moeLayers = tf.expertLayers();
        double kernels = tf.layers() * layer.kernels() + (moe == null ? 0 : moeLayers * moe.kernels())
                + (token == null ? 0 : token.kernels());
        StringBuilder source = new StringBuilder(String.format(Locale.ROOT, "%d layers x %.0f (%s %s weights, batch %d)",
                tf.layers(), layer.kernels(), engine.id(), weightClass, batch));
        if (tf.experts().sparse()) {
            source.append(moe == null
                    ? String.format(Locale.ROOT, " (no MoE count for %s in kernels.tsv: its %d MoE layers as dense)",
                            engine.id(), moeLayers)
                    : String.format(Locale.ROOT, " + %d MoE layers x %.0f", moeLayers, moe.kernels()));
        }
        if (token != null) {
            source.append(String.format(Locale.ROOT, " + %.0f per step", token.kernels()));
        }
        source.append(" (engines/kernels.tsv, read from the engine's code)");
        return new Count(kernels, source.toString());
    }

    private static Row find(String engineId, String part, String weightClass, int batch) {
        for (Row r : TABLE) {
            if (r.matches(engineId, part, weightClass, batch)) {
                return r;
            }
        }
        return null;
    }

    private static List<Row> load() {
        List<Row> rows = new ArrayList<>();
        for (String[] f : ResourceTable.rows(RESOURCE, 6)) {
            String[] batch = f[3].split("-");
            rows.add(new Row(f[0], f[1], f[2], Integer.parseInt(batch[0]), Integer.parseInt(batch[1]),
                    Double.parseDouble(f[4]), f[5]));
        }
        return List.copyOf(rows);
    }
}
