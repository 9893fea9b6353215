package membound.model.decode;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

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
    private static final Pattern GROUPED_INT4 = Pattern.compile("(awq|gptq)-int4-g([0-9]{1,5})");

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
        WeightScheme checkpoint = checkpointConvention(trimmed.toLowerCase(Locale.ROOT));
        if (checkpoint != null) {
            return checkpoint;
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

    /**
     * The published conventions of quantized checkpoints, by name: the linear layers of the blocks
     * (attention, MLP, experts) in the quantized format, the rest (embeddings, LM head, router, norms)
     * in 16 bits. {@code awq-int4-gN} and {@code gptq-int4-gN}: AutoAWQ's and AutoGPTQ's layout, a
     * 4-bit weight plus an FP16 scale and a 4-bit zero point per group of N inputs (4 + 20/N bits;
     * GPTQ's g_idx, 32 bits per input row, is left out: under 0.01 bit per weight at 4096 outputs).
     * {@code fp8-block128}: FP8 E4M3 with an FP32 scale per 128 x 128 block (config.json
     * quantization_config: quant_method fp8, weight_block_size [128, 128], as Qwen3-*-FP8 and
     * DeepSeek-V3 publish). {@code nvfp4-modelopt}: NVIDIA ModelOpt's NVFP4 (hf_quant_config.json:
     * quant_algo NVFP4, group_size 16, exclude_modules lm_head and the MoE router gates).
     */
    private static WeightScheme checkpointConvention(String name) {
        Matcher group = GROUPED_INT4.matcher(name);
        if (group.matches()) {
            int size = Integer.parseInt(group.group(2));
            if (size < 8) {
                throw new BadInputException("weights group size must be at least 8: weights=" + name);
            }
            double bits = 4 + 20.0 / size;
            String method = group.group(1).toUpperCase(Locale.ROOT);
            return blocksIn(name, new WeightFormat(method + " int4 g" + size, bits, method + " layout: 4-bit weights, "
                    + "an FP16 scale and a 4-bit zero point per " + size + " inputs"), WeightFormat.parse("f16"),
                    method + " checkpoint: the blocks' linear layers quantized, embeddings, LM head and router in FP16");
        }
        return switch (name) {
            case "fp8-block128" -> blocksIn(name, new WeightFormat("FP8 block 128", 8 + 32.0 / (128 * 128),
                    "FP8 E4M3 with an FP32 scale per 128 x 128 block"), WeightFormat.parse("bf16"),
                    "config.json quantization_config quant_method fp8, weight_block_size [128, 128] (Qwen3-*-FP8, "
                            + "DeepSeek-V3): the blocks' linear layers in FP8, embeddings, LM head and router in BF16");
            case "nvfp4-modelopt" -> blocksIn(name, WeightFormat.parse("nvfp4"), WeightFormat.parse("bf16"),
                    "NVIDIA ModelOpt hf_quant_config.json: quant_algo NVFP4, group_size 16, exclude_modules lm_head "
                            + "and the router gates (nvidia/Qwen3-235B-A22B-NVFP4)");
            default -> null;
        };
    }

    /** The blocks' linear layers (attention, dense MLP, experts) in {@code quantized}, everything else in {@code rest}. */
    private static WeightScheme blocksIn(String name, WeightFormat quantized, WeightFormat rest, String source) {
        Map<TensorKind, WeightFormat> overrides = new EnumMap<>(TensorKind.class);
        for (TensorKind kind : List.of(TensorKind.ATTENTION, TensorKind.DENSE_MLP, TensorKind.EXPERTS)) {
            overrides.put(kind, quantized);
        }
        return new WeightScheme(name + " (" + quantized.name() + " blocks, the rest " + rest.name() + ")", rest, overrides,
                source, null);
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
