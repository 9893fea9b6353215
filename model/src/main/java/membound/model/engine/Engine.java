package membound.model.engine;

import java.time.LocalDate;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

import membound.model.ResourceTable;
import membound.model.decode.WeightFormat;
import membound.model.decode.WeightScheme;
import membound.model.machine.Device;
import membound.model.workload.TensorKind;
import membound.model.workload.Transformer;
import membound.vocabulary.BadInputException;
import membound.vocabulary.DeviceKind;
import membound.vocabulary.Precision;
import membound.vocabulary.text.Names;

/**
 * An inference engine or trainer as {@code --engine} names it: which precision its GEMMs really run
 * in for a checkpoint's weight format on a backend (llama.cpp's MMQ kernels multiply quantized weights
 * in int8, TensorRT-LLM's NVFP4 GEMMs in FP4, Marlin dequantizes AWQ/GPTQ to FP16). The rules are the
 * committed table {@code engines/engines.tsv}, one public source per row; how efficient those GEMMs
 * are is not a property read here but a fitted term of the published set (see {@code membound
 * validate --published}).
 */
public record Engine(String id, List<Rule> rules) {

    private static final String RESOURCE = "/membound/model/engines/engines.tsv";
    private static final List<Rule> TABLE = load();

    /**
     * One row of the table: engine, backend, the format families it covers, the GEMM precision, the day it took effect
     * in the engine's releases (null: always), its source.
     */
    public record Rule(String engine, String backend, Set<String> formats, Precision gemm, LocalDate since,
                       String source) {

        /** Whether a run on {@code day} (null: today's engine) had this rule. */
        boolean inForceOn(LocalDate day) {
            return since == null || day == null || !since.isAfter(day);
        }
    }

    /** What a prefill or decode GEMM of this engine runs in, and which table row says so. */
    public record Gemm(Precision precision, String family, Rule rule, String note) {
    }

    public static List<String> ids() {
        Set<String> ids = new LinkedHashSet<>();
        for (Rule r : TABLE) {
            ids.add(r.engine());
        }
        return new ArrayList<>(ids);
    }

    /** The engine by id ({@code llama.cpp}, {@code trt-llm}, {@code vllm}, ...); a one-line error naming the known ones. */
    public static Engine parse(String text) {
        String key = text == null ? "" : text.trim().toLowerCase(Locale.ROOT);
        key = switch (key) {
            case "llamacpp", "llama-cpp", "ollama" -> "llama.cpp";
            case "tensorrt-llm", "trtllm", "tensorrt_llm" -> "trt-llm";
            case "pytorch" -> "pytorch-eager";
            case "torch-compile", "inductor" -> "pytorch-compiled";
            default -> key;
        };
        List<Rule> rules = new ArrayList<>();
        for (Rule r : TABLE) {
            if (r.engine().equals(key)) {
                rules.add(r);
            }
        }
        if (rules.isEmpty()) {
            throw new BadInputException("engine must be one of " + String.join(", ", ids()) + ": engine=" + text
                    + Names.suggestion(text, ids()));
        }
        return new Engine(key, List.copyOf(rules));
    }

    /**
     * The GEMM precision for this model's weights on this device: the format of the weights that dominate the
     * FLOPs (the experts of a mixture of experts, else the dense MLP) picks the row.
     */
    public Gemm gemm(Transformer tf, WeightScheme weights, Device device) {
        return gemm(tf, weights, device, null);
    }

    /**
     * As {@link #gemm(Transformer, WeightScheme, Device)} for a run of the engine as it was on {@code day}: a rule that
     * took effect later is passed over for the next that matches (null: today's engine).
     */
    public Gemm gemm(Transformer tf, WeightScheme weights, Device device, LocalDate day) {
        WeightScheme resolved = weights.resolve(tf);
        WeightFormat format = resolved.format(tf.experts().sparse() ? TensorKind.EXPERTS : TensorKind.DENSE_MLP);
        String family = family(format, resolved);
        String backend = backend(device);
        for (String tried : backend.equals(BLACKWELL) ? List.of(BLACKWELL, "cuda") : List.of(backend)) {
            for (Rule r : rules) {
                if (r.backend().equals(tried) && r.formats().contains(family) && r.inForceOn(day)) {
                    Precision p = r.gemm();
                    String note = null;
                    if (p == Precision.INT8 && !device.compute().containsKey(Precision.INT8)) {
                        p = Precision.FP8;
                        note = device.name() + " has no INT8 ceiling: int8 MMA at its FP8 rate (table row: "
                                + r.engine() + " " + r.backend() + ")";
                    }
                    return new Gemm(p, family, r, note);
                }
            }
        }
        throw new BadInputException("engine " + id + " has no rule for " + family + " weights on a " + backend
                + " GPU (engines.tsv): weights=" + weights.name());
    }

    /** The format family a table row names: gguf, mxfp4, nvfp4, int4-grouped, fp8, 16-bit or f32. */
    static String family(WeightFormat format, WeightScheme scheme) {
        String name = format.name().toUpperCase(Locale.ROOT);
        String scheme0 = scheme.name().toLowerCase(Locale.ROOT);
        if (scheme0.startsWith("awq") || scheme0.startsWith("gptq")) {
            return "int4-grouped";
        }
        if (name.equals("MXFP4")) {
            return "mxfp4";
        }
        if (name.equals("NVFP4")) {
            return "nvfp4";
        }
        if (name.startsWith("Q")) {
            return "gguf";
        }
        if (name.equals("FP8") || name.startsWith("FP8 ")) {
            // FP8 per tensor and FP8 with a scale per 128 x 128 block (fp8-block128) run the same FP8 GEMMs.
            return "fp8";
        }
        if (name.equals("BF16") || name.equals("F16")) {
            return "16-bit";
        }
        if (name.equals("F32")) {
            return "f32";
        }
        throw new BadInputException("weights must be a format an engine rule covers (GGUF block types, MXFP4, NVFP4, "
                + "AWQ/GPTQ int4, FP8, BF16/F16, F32): weights=" + format.name());
    }

    private static final String BLACKWELL = "cuda-blackwell";

    /**
     * Apple GPUs run Metal kernels; Blackwell GPUs (GB10, B200, GeForce RTX 50) CUDA with the Blackwell rules
     * tried first; every other GPU in the catalog CUDA.
     */
    static String backend(Device device) {
        if (device.kind() != DeviceKind.GPU) {
            throw new BadInputException("an engine's GEMM rules are for GPUs: device=" + device.id());
        }
        String name = device.name().toLowerCase(Locale.ROOT);
        if (name.contains("apple")) {
            return "metal";
        }
        return name.contains("blackwell") || name.contains("b200") || name.contains("rtx 50") ? BLACKWELL : "cuda";
    }

    private static List<Rule> load() {
        List<Rule> rules = new ArrayList<>();
        for (String[] f : ResourceTable.rows(RESOURCE, 6)) {
            rules.add(new Rule(f[0], f[1], Set.of(f[2].split(",")), Precision.parse(f[3]),
                    f[4].equals("-") ? null : LocalDate.parse(f[4]), f[5]));
        }
        return List.copyOf(rules);
    }
}
