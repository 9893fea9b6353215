package membound.model.decode;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import membound.vocabulary.BadInputException;
import membound.vocabulary.text.Names;

/**
 * How weights are stored for inference: bits per weight including block scales. llama.cpp's
 * block formats are counted from their block structs (ggml-common.h: {@code block_q4_0} is one
 * FP16 scale and 32 4-bit values, 18 bytes per 32 weights = 4.5 bits); the microscaling formats
 * from their specifications.
 */
public record WeightFormat(String name, double bitsPerWeight, String source) {

    public WeightFormat {
        if (!(bitsPerWeight > 0 && bitsPerWeight <= 64)) {
            throw new BadInputException("weight bits must be between 0 and 64: bitsPerWeight=" + bitsPerWeight);
        }
    }

    private static final String GGML = "llama.cpp ggml-common.h block layout: ";
    private static final Map<String, WeightFormat> KNOWN = new LinkedHashMap<>();

    static {
        known("F32", 32, "IEEE binary32");
        known("F16", 16, "IEEE binary16");
        known("BF16", 16, "bfloat16");
        known("FP8", 8, "FP8 E4M3/E5M2, per-tensor scale");
        known("Q8_0", 8.5, GGML + "FP16 scale + 32 x int8 = 34 bytes per 32 weights");
        known("Q6_K", 6.5625, GGML + "210 bytes per 256-weight super-block");
        known("Q5_1", 6.0, GGML + "FP16 scale and min + 32 x 5 bits = 24 bytes per 32 weights");
        known("Q5_0", 5.5, GGML + "FP16 scale + 32 x 5 bits = 22 bytes per 32 weights");
        known("Q5_K", 5.5, GGML + "176 bytes per 256-weight super-block");
        known("Q4_1", 5.0, GGML + "FP16 scale and min + 32 x 4 bits = 20 bytes per 32 weights");
        known("Q4_0", 4.5, GGML + "FP16 scale + 32 x 4 bits = 18 bytes per 32 weights");
        known("Q4_K", 4.5, GGML + "144 bytes per 256-weight super-block");
        known("NVFP4", 4.5, "NVIDIA NVFP4: 16 x FP4 E2M1 + one FP8 E4M3 scale = 72 bits per 16 weights");
        known("MXFP4", 4.25, "OCP Microscaling spec v1.0: 32 x FP4 E2M1 + one E8M0 scale = 136 bits per 32 weights");
        known("NF4", 4.127, "QLoRA (Dettmers et al. 2023): 4-bit NormalFloat + 0.127 bits of double-quantized constants");
        known("Q3_K", 3.4375, GGML + "110 bytes per 256-weight super-block");
        known("Q2_K", 2.625, GGML + "84 bytes per 256-weight super-block");
    }

    private static void known(String name, double bits, String source) {
        KNOWN.put(name, new WeightFormat(name, bits, source));
    }

    public static List<String> names() {
        return new ArrayList<>(KNOWN.keySet());
    }

    /** A named format ({@code Q4_0}, {@code q8_0}, {@code bf16}, {@code mxfp4}) or bits per weight ({@code 4.5}, {@code 8bit}). */
    public static WeightFormat parse(String text) {
        String key = text == null ? "" : text.trim().toUpperCase(Locale.ROOT);
        key = switch (key) {
            case "FP16", "FLOAT16", "HALF" -> "F16";
            case "FP32", "FLOAT32" -> "F32";
            case "INT8", "8BIT" -> "8";
            case "INT4", "4BIT" -> "4";
            default -> key;
        };
        WeightFormat named = KNOWN.get(key);
        if (named != null) {
            return named;
        }
        if (key.startsWith("Q4_K_") || key.startsWith("Q5_K_") || key.startsWith("Q3_K_")) {
            throw new BadInputException("weights must be a block format or one of llama.cpp's mixes the model knows "
                    + "(Q4_K_M, Q5_K_M, Q6_K, Q8_0); for " + text + " give its file's bits per weight: weights=" + text);
        }
        String number = key.replace("BITS", "").replace("BIT", "").replace("BPW", "").trim();
        try {
            double bits = Double.parseDouble(number);
            return new WeightFormat(String.format(Locale.ROOT, "%s bits", trim(bits)), bits, "given as bits per weight");
        } catch (NumberFormatException e) {
            throw new BadInputException("weights must be a format (" + String.join(", ", KNOWN.keySet())
                    + ") or bits per weight such as 4.5: weights=" + text + Names.suggestion(text, KNOWN.keySet()));
        }
    }

    private static String trim(double bits) {
        return bits == Math.rint(bits) ? String.valueOf((long) bits) : String.valueOf(bits);
    }
}
