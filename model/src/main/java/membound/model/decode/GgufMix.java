package membound.model.decode;

import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;

import membound.model.workload.Transformer;
import membound.model.workload.TensorKind;

/**
 * llama.cpp's mixed GGUF types as its quantizer writes them ({@code src/llama-quant.cpp},
 * {@code llama_tensor_get_type_impl}): a default block type, and per tensor the exceptions it makes.
 * For Q4_K_M and Q5_K_M the value projection and the MLP's down projection get Q6_K on the layers
 * {@code use_more_bits} picks (the first and last eighth and every third between); the output layer
 * (and a tied embedding) gets Q6_K unless the default is Q8_0; with exactly 8 experts (Mixtral) the
 * key and value projections get Q8_0 and, in Q4_K_M, the attention output Q5_K; on a 70B Llama
 * (80 layers of 8192) a Q4_K value projection becomes Q5_K. A K-quant whose rows are not a multiple
 * of 256 falls back (Q4_K to Q5_0, Q5_K to Q5_1, Q6_K to Q8_0). Norms, biases and the router
 * ({@code ffn_gate_inp}) stay at 32 bits: convert_hf_to_gguf.py writes them in F32 ("some tensor types
 * are always in float32") and the quantizer leaves norms and the router as they are. Not modelled: Falcon's own exceptions, and the fused QKV tensor of Phi-3, GPT-NeoX and
 * Falcon GGUFs (taken as three projections).
 *
 * <p>The result is a {@link WeightScheme} whose per-kind figure is the bits of that kind's tensors
 * weighted by their sizes, so the bytes a step reads of each kind are those of the real tensors.
 */
public enum GgufMix {
    Q4_K_M("Q4_K"),
    Q5_K_M("Q5_K"),
    Q6_K("Q6_K"),
    Q8_0("Q8_0");

    private static final int SUPER_BLOCK = 256;
    private static final double F32_BITS = 32;

    private final String defaultType;

    GgufMix(String defaultType) {
        this.defaultType = defaultType;
    }

    /** The block type of every tensor the quantizer makes no exception for. */
    public WeightFormat defaultFormat() {
        return WeightFormat.parse(defaultType);
    }

    /** The mix named so ({@code Q4_K_M}, case-insensitive), or null. */
    public static GgufMix named(String text) {
        for (GgufMix mix : values()) {
            if (mix.name().equalsIgnoreCase(text.trim())) {
                return mix;
            }
        }
        return null;
    }

    /** Bits per kind for this model's tensors. */
    public WeightScheme scheme(Transformer tf) {
        Sums sums = new Sums();
        int layers = tf.layers();
        long h = tf.hiddenSize();
        boolean eightExperts = tf.experts().experts() == 8;
        attention(tf, sums, eightExperts);
        // ffn_down tensors: the dense MLP's, the experts' and the shared experts', counted as llama.cpp counts them.
        boolean shared = tf.experts().sharedWidth() > 0;
        int downTensors = tf.denseMlpLayers() + tf.expertLayers() * (shared ? 2 : 1);
        boolean moe = tf.experts().sparse();
        int up = tf.activation().gated() ? 2 : 1;
        for (int layer = 0, counter = 0; layer < layers; layer++) {
            boolean expertLayer = moe && layer >= tf.denseMlpLayers();
            // A mixture of experts names its layer; a dense model counts its ffn_down tensors in file order.
            int downIndex = moe ? layer : counter++;
            if (!expertLayer) {
                mlp(sums, TensorKind.DENSE_MLP, up, h, tf.intermediateSize(), 1, downIndex, downTensors);
                continue;
            }
            int width = tf.experts().expertWidth();
            mlp(sums, TensorKind.EXPERTS, up, h, width, tf.experts().experts(), downIndex, downTensors);
            if (shared) {
                mlp(sums, TensorKind.DENSE_MLP, up, h, tf.experts().sharedWidth(), 1, downIndex, downTensors);
            }
        }
        if (tf.hasEmbeddings()) {
            double table = (double) tf.vocabularySize() * h;
            String output = defaultType.equals("Q8_0") ? "Q8_0" : "Q6_K";
            sums.add(TensorKind.LM_HEAD, table, bits(output, h));
            if (!tf.tiedEmbeddings()) {
                sums.add(TensorKind.EMBEDDING, table, bits(defaultType, h));
            }
        }
        Map<TensorKind, WeightFormat> formats = new EnumMap<>(TensorKind.class);
        for (TensorKind kind : TensorKind.values()) {
            formats.put(kind, sums.format(kind, this));
        }
        formats.put(TensorKind.NORMS, WeightFormat.parse("F32"));
        formats.put(TensorKind.ROUTER, WeightFormat.parse("F32"));
        return new WeightScheme(name() + " (llama.cpp mix)", defaultFormat(), formats,
                "llama.cpp src/llama-quant.cpp per-tensor types for " + name() + ", weighted by this model's tensor sizes",
                null);
    }

    private void attention(Transformer tf, Sums sums, boolean eightExperts) {
        long h = tf.hiddenSize();
        int layers = tf.layers();
        boolean llama70b = layers == 80 && h == 8192;
        for (int layer = 0; layer < layers; layer++) {
            String value = valueType(layer, layers, eightExperts, llama70b);
            String output = eightExperts && this == Q4_K_M ? "Q5_K" : defaultType;
            String key = eightExperts ? "Q8_0" : defaultType;
            if (tf.latentAttention().present()) {
                // attn_kv_b takes the value projection's rule; the query and latent projections the default.
                var mla = tf.latentAttention();
                double queryOut = (double) tf.attentionHeads() * mla.queryKeyHeadDimension();
                if (mla.queryRank() > 0) {
                    sums.add(TensorKind.ATTENTION, (double) h * mla.queryRank(), bits(defaultType, h));
                    sums.add(TensorKind.ATTENTION, mla.queryRank() * queryOut, bits(defaultType, mla.queryRank()));
                } else {
                    sums.add(TensorKind.ATTENTION, h * queryOut, bits(defaultType, h));
                }
                sums.add(TensorKind.ATTENTION, (double) h * mla.cacheElementsPerToken(), bits(defaultType, h));
                double up = (double) tf.attentionHeads() * (mla.noPositionDimension() + mla.valueDimension());
                sums.add(TensorKind.ATTENTION, mla.keyValueRank() * up, bits(value, mla.keyValueRank()));
                double outputIn = (double) tf.attentionHeads() * mla.valueDimension();
                sums.add(TensorKind.ATTENTION, outputIn * h, bits(output, (long) outputIn));
                continue;
            }
            double q = tf.queryDimension();
            double kv = tf.keyValueDimension();
            sums.add(TensorKind.ATTENTION, h * q, bits(defaultType, h));
            sums.add(TensorKind.ATTENTION, h * kv, bits(key, h));
            sums.add(TensorKind.ATTENTION, h * kv, bits(value, h));
            sums.add(TensorKind.ATTENTION, q * h, bits(output, tf.queryDimension()));
        }
    }

    private String valueType(int layer, int layers, boolean eightExperts, boolean llama70b) {
        if (eightExperts) {
            return "Q8_0";
        }
        String type = (this == Q4_K_M || this == Q5_K_M) && useMoreBits(layer, layers) ? "Q6_K" : defaultType;
        return llama70b && type.equals("Q4_K") ? "Q5_K" : type;
    }

    private void mlp(Sums sums, TensorKind kind, int upMatrices, long h, int width, int copies, int downIndex,
                     int downTensors) {
        double matrix = (double) h * width * copies;
        sums.add(kind, upMatrices * matrix, bits(defaultType, h));
        String down = (this == Q4_K_M || this == Q5_K_M) && useMoreBits(downIndex, downTensors) ? "Q6_K" : defaultType;
        sums.add(kind, matrix, bits(down, width));
    }

    /** llama-quant.cpp's use_more_bits: the first and last eighth of the layers and every third between. */
    static boolean useMoreBits(int layer, int layers) {
        return layer < layers / 8 || layer >= 7 * layers / 8 || (layer - layers / 8) % 3 == 2;
    }

    /** Bits of a type for a tensor with rows of {@code columns}, after llama.cpp's fallback for K-quants. */
    private static double bits(String type, long columns) {
        String stored = type;
        if (columns % SUPER_BLOCK != 0) {
            stored = switch (type) {
                case "Q4_K" -> "Q5_0";
                case "Q5_K" -> "Q5_1";
                case "Q6_K" -> "Q8_0";
                default -> type;
            };
        }
        return WeightFormat.parse(stored).bitsPerWeight();
    }

    /** Parameters and bits per kind, summed over the model's tensors. */
    private static final class Sums {
        private final Map<TensorKind, double[]> byKind = new EnumMap<>(TensorKind.class);

        void add(TensorKind kind, double parameters, double bits) {
            double[] sum = byKind.computeIfAbsent(kind, k -> new double[2]);
            sum[0] += parameters;
            sum[1] += parameters * bits;
        }

        WeightFormat format(TensorKind kind, GgufMix mix) {
            double[] sum = byKind.get(kind);
            double bits = sum == null || sum[0] == 0 ? F32_BITS : sum[1] / sum[0];
            return new WeightFormat(String.format(Locale.ROOT, "%s %s", mix.name(), kind.label()), bits,
                    "llama.cpp llama-quant.cpp types for " + mix.name());
        }
    }
}
