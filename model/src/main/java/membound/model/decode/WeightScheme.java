package membound.model.decode;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import membound.model.workload.ParameterCounts;
import membound.model.workload.Transformer;
import membound.model.workload.TensorKind;
import membound.vocabulary.BadInputException;
import membound.vocabulary.text.Names;

/**
 * How a checkpoint stores its weights: one {@link WeightFormat} per {@link TensorKind}, a base
 * format for every kind not overridden. {@code --weights} reads it: a format ({@code Q8_0}: every
 * tensor alike), a base and overrides ({@code bf16,experts=mxfp4}), overrides alone (on BF16), or a
 * published convention by name ({@code gpt-oss-mxfp4}; llama.cpp's mixes {@code Q4_K_M}, {@code Q5_K_M},
 * whose types depend on the model's shapes: {@link #resolve} them against the model first).
 */
public record WeightScheme(String name, WeightFormat base, Map<TensorKind, WeightFormat> overrides, String source,
                           GgufMix mix) {

    private static final String GPT_OSS = "gpt-oss-mxfp4";

    public WeightScheme {
        if (base == null) {
            throw new BadInputException("a weight scheme needs a base format");
        }
        overrides = overrides == null || overrides.isEmpty() ? Map.of() : Map.copyOf(new EnumMap<>(overrides));
    }

    /** Every tensor in one format. */
    public static WeightScheme uniform(WeightFormat format) {
        return new WeightScheme(format.name(), format, Map.of(), format.source(), null);
    }

    /** Every tensor alike: one bits-per-weight figure describes the checkpoint. */
    public boolean isUniform() {
        return overrides.isEmpty() && mix == null;
    }

    /** The scheme for this model: a llama.cpp mix gets its per-tensor types from the model's shapes. */
    public WeightScheme resolve(Transformer tf) {
        return mix == null ? this : mix.scheme(tf);
    }

    public WeightFormat format(TensorKind kind) {
        return overrides.getOrDefault(kind, base);
    }

    /** Bits of the base format: every tensor that is not overridden. */
    public double bitsPerWeight() {
        return base.bitsPerWeight();
    }

    /** Bits of the kinds stored otherwise than the base. */
    public Map<TensorKind, Double> overriddenBits() {
        Map<TensorKind, Double> bits = new EnumMap<>(TensorKind.class);
        overrides.forEach((kind, format) -> bits.put(kind, format.bitsPerWeight()));
        return bits;
    }

    /**
     * Bytes of the stored weights: every part at its kind's format, the experts scaled by
     * {@code expertFraction} (the share of them a step reads), the lookup-only tables (input
     * embedding, learned positions) only if {@code withLookupTables}.
     */
    public double bytes(ParameterCounts p, double expertFraction, boolean withLookupTables) {
        double bits = p.attention() * bits(TensorKind.ATTENTION)
                + p.mlp() * bits(TensorKind.DENSE_MLP)
                + p.experts() * expertFraction * bits(TensorKind.EXPERTS)
                + p.router() * bits(TensorKind.ROUTER)
                + p.norms() * bits(TensorKind.NORMS)
                + p.unembedding() * bits(TensorKind.LM_HEAD)
                + (withLookupTables ? p.lookupOnly() * bits(TensorKind.EMBEDDING) : 0);
        return bits / 8;
    }

    /** Each kind the model has, with its format and bits, for the notes: {@code experts 4.25 bits (MXFP4), ...}. */
    public String describeKinds(ParameterCounts p) {
        Map<TensorKind, Long> sizes = Map.of(TensorKind.EXPERTS, p.experts(), TensorKind.ATTENTION, p.attention(),
                TensorKind.DENSE_MLP, p.mlp(), TensorKind.ROUTER, p.router(), TensorKind.EMBEDDING, p.lookupOnly(),
                TensorKind.LM_HEAD, p.unembedding(), TensorKind.NORMS, p.norms());
        List<String> parts = new ArrayList<>();
        for (TensorKind kind : TensorKind.values()) {
            if (sizes.get(kind) == 0) {
                continue;
            }
            WeightFormat format = format(kind);
            parts.add(String.format(Locale.ROOT, "%s %.3g bits (%s)", kind.label(), format.bitsPerWeight(), format.name()));
        }
        return String.join(", ", parts);
    }

    private double bits(TensorKind kind) {
        return format(kind).bitsPerWeight();
    }

    /** A format, {@code base,kind=format,...}, {@code kind=format,...} (on BF16), or {@code gpt-oss-mxfp4}. */
    public static WeightScheme parse(String text) {
        String trimmed = text == null ? "" : text.trim();
        if (trimmed.equalsIgnoreCase(GPT_OSS)) {
            return gptOss();
        }
        GgufMix mix = GgufMix.named(trimmed);
        if (mix != null) {
            return new WeightScheme(mix.name() + " (llama.cpp mix)", mix.defaultFormat(), Map.of(),
                    "llama.cpp src/llama-quant.cpp per-tensor types for " + mix.name(), mix);
        }
        if (!trimmed.contains("=")) {
            return uniform(WeightFormat.parse(trimmed));
        }
        WeightFormat base = WeightFormat.parse("bf16");
        Map<TensorKind, WeightFormat> overrides = new EnumMap<>(TensorKind.class);
        String[] items = trimmed.split(",");
        for (int i = 0; i < items.length; i++) {
            String item = items[i].trim();
            int eq = item.indexOf('=');
            if (eq < 0 && i == 0) {
                base = WeightFormat.parse(item);
                continue;
            }
            if (eq < 0) {
                throw new BadInputException("weights must be a format, then kind=format overrides: weights=" + text
                        + " (item " + item + ")");
            }
            overrides.put(kind(item.substring(0, eq).trim(), text), WeightFormat.parse(item.substring(eq + 1)));
        }
        List<String> parts = new ArrayList<>();
        overrides.forEach((kind, format) -> parts.add(kind.label() + " " + format.name()));
        return new WeightScheme(base.name() + ", " + String.join(", ", parts), base, overrides,
                base.source() + "; overridden per tensor kind as given", null);
    }

    /**
     * gpt-oss as OpenAI released it: the MoE experts in MXFP4, attention, router, embeddings and LM
     * head in BF16 (config.json's quantization_config: quant_method mxfp4, modules_to_not_convert
     * self_attn, mlp.router, embed_tokens, lm_head).
     */
    private static WeightScheme gptOss() {
        WeightFormat bf16 = WeightFormat.parse("bf16");
        return new WeightScheme(GPT_OSS + " (experts MXFP4, the rest BF16)", bf16,
                Map.of(TensorKind.EXPERTS, WeightFormat.parse("mxfp4")),
                "gpt-oss config.json quantization_config: mxfp4 for the MoE experts, modules_to_not_convert "
                        + "self_attn, mlp.router, embed_tokens, lm_head (BF16)", null);
    }

    private static TensorKind kind(String label, String text) {
        List<String> labels = new ArrayList<>();
        for (TensorKind kind : TensorKind.values()) {
            labels.add(kind.label());
            if (kind.label().equals(label.toLowerCase(Locale.ROOT))) {
                return kind;
            }
        }
        throw new BadInputException("weights must override a tensor kind (" + String.join(", ", labels) + "): weights="
                + text + " (kind " + label + ")" + Names.suggestion(label, labels));
    }
}
