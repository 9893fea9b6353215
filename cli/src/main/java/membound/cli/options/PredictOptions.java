package membound.cli.options;

import java.util.ArrayList;
import java.util.List;

import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import membound.model.Defaults;
import membound.model.decode.DecodeSetup;
import membound.model.decode.WeightFormat;
import membound.model.decode.WeightScheme;
import membound.model.machine.Machines;
import membound.model.machine.Overrides;
import membound.model.training.Checkpointing;
import membound.model.training.FineTuning;
import membound.model.training.LoraTarget;
import membound.model.training.Offload;
import membound.model.training.Optimizer;
import membound.model.training.Parallelism;
import membound.model.training.Pruning;
import membound.model.training.TrainingSetup;
import membound.model.workload.Activation;
import membound.model.workload.Mlp;
import membound.model.workload.Presets;
import membound.model.workload.Transformer;
import membound.model.workload.Workload;
import membound.model.trainer.Trainer;
import membound.vocabulary.BadInputException;
import membound.vocabulary.Precision;

/**
 * Every option of {@code membound predict}: the workload, the hardware (with {@code --profile}), the training
 * setup, decode, and the output ({@code --format}). {@code membound report} takes them all too, so what a
 * report draws is what predict would print. Declared in the order help lists them.
 */
public final class PredictOptions {

    // ---- workload ----

    @Option(names = "--model", paramLabel = "PRESET|config.json",
            description = "Preset (${COMPLETION-CANDIDATES}) or a Hugging Face config.json.",
            completionCandidates = PresetNames.class)
    String model;

    @Option(names = "--mlp", paramLabel = "W0,W1,...", description = "A plain MLP instead: layer widths, e.g. 784,4096,4096,10.")
    String mlp;

    // ---- hardware ----

    @Option(names = "--hardware", paramLabel = "NAME", description = "Datasheet entry (${COMPLETION-CANDIDATES}).",
            completionCandidates = CatalogNames.class)
    String hardware;

    @Mixin
    ProfileOption profile;

    @Option(names = "--device", paramLabel = "ID", description = "Profile device to run on (default: its GPU, else its CPU).")
    String device;

    @Option(names = "--compare", paramLabel = "ID", split = ",", splitSynopsisLabel = ",",
            description = "Machines to put side by side (the profile or --hardware comes first): datasheet "
                    + "entries, or profile:FILE for a profile (an imported llm-analysis or Calculon file too).")
    List<String> compare = new ArrayList<>();

    @Option(names = "--memory-bandwidth", paramLabel = "[MACHINE:]RATE",
            description = "What-if main-memory bandwidth, e.g. 232GB/s (other patterns keep their ratio to read).")
    List<String> memoryBandwidth = new ArrayList<>();

    @Option(names = "--peak-flops", paramLabel = "[MACHINE:]PRECISION=RATE",
            description = "What-if GEMM rate, e.g. bf16=92T; gives a machine without compute figures one.")
    List<String> peakFlops = new ArrayList<>();

    // ---- training setup ----

    @Option(names = "--tokens", paramLabel = "N", description = "Tokens to train on (2B, 500M, 1e9). Default 1B.")
    String tokens;

    @Option(names = "--steps", paramLabel = "N", description = "Optimizer steps instead of tokens.")
    String steps;

    @Option(names = {"--seq-len", "--sequence-length"}, paramLabel = "N", description = "Tokens per sequence (default 2048).")
    int sequenceLength = Defaults.SEQUENCE_LENGTH;

    @Option(names = "--micro-batch", paramLabel = "N", description = "Sequences per micro-batch per device (default 1).")
    int microBatch = Defaults.MICRO_BATCH;

    @Option(names = "--grad-accum", paramLabel = "N", description = "Micro-batches per optimizer step (default 1).")
    int gradientAccumulation = Defaults.GRADIENT_ACCUMULATION;

    @Option(names = "--precision", paramLabel = "P", description = "Weights, activations and gradients: fp32, bf16, fp16, fp8, fp4.")
    String precision;

    @Option(names = "--weights-precision", paramLabel = "P", description = "Weights only (overrides --precision).")
    String weightsPrecision;

    @Option(names = "--activations-precision", paramLabel = "P",
            description = "Activations, and the precision GEMMs compute in (fp8: FP8 GEMMs).")
    String activationsPrecision;

    @Option(names = "--gradients-precision", paramLabel = "P", description = "Gradients only.")
    String gradientsPrecision;

    @Option(names = "--optimizer-precision", paramLabel = "P", description = "Optimizer states (default fp32).")
    String optimizerPrecision;

    @Option(names = "--master-weights", negatable = true, defaultValue = "true", fallbackValue = "true",
            description = "Keep FP32 master weights when weights are narrower (default on).")
    boolean masterWeights;

    @Option(names = "--optimizer", paramLabel = "NAME", description = "adamw, sgd, adafactor or adam8bit (default adamw).")
    String optimizer = "adamw";

    @Option(names = "--checkpointing", paramLabel = "MODE", description = "Activation checkpointing: none, selective, full.")
    String checkpointing = "none";

    @Option(names = "--recompute-modules", paramLabel = "LIST", description = "With --checkpointing selective: the parts "
            + "recomputed, Megatron's recompute_modules (core_attn, layernorm, moe_act, mla_up_proj, mlp, "
            + "shared_experts, moe; default core_attn).")
    String recomputeModules;

    @Option(names = "--recompute-layers", paramLabel = "N", description = "With --checkpointing full: layers of each "
            + "pipeline stage recomputed (Megatron's recompute_num_layers, block method; default all).")
    int recomputeLayers;

    @Option(names = "--attention-precision", paramLabel = "P", description = "Precision attention computes in (default: "
            + "the stored activations', 16 bits under FP8 training; fp8 for FP8 attention).")
    String attentionPrecision;

    @Option(names = "--attention-kernel", paramLabel = "K", description = "Fused attention kernel: fa2 (FlashAttention-2) "
            + "or fa3 (FlashAttention-3, cuDNN), which differ on Hopper (default: the trainer's).")
    String attentionKernel;

    @Option(names = "--moe-dispatcher", paramLabel = "D", description = "How a mixture of experts' tokens reach their "
            + "experts: fused (Megatron-Core's flex dispatcher over DeepEP or HybridEP, or a trainer's own path; also "
            + "flex, deepep, hybridep) or alltoall (Megatron-Core's all-to-all token dispatcher: its token counts read "
            + "back to the host cost the trainer's fitted time per dispatch) (default fused).")
    String moeDispatcher;

    @Option(names = "--overlap-expert-communication", description = "Hide the expert-parallel all-to-all behind "
            + "compute (Megatron-Core's overlap_moe_expert_parallel_comm, the recipes' moe_a2a_overlap).")
    boolean overlapExpertCommunication;

    @Option(names = "--overlap-param-gather", negatable = true, defaultValue = "true", fallbackValue = "true",
            description = "With a distributed optimizer (--zero 1 or 2) and --overlap-communication: hide its "
            + "all-gather of the updated parameters behind the next forward (Megatron's overlap_param_gather; default "
            + "on; --no-overlap-param-gather exposes it, as Megatron-Bridge's 25.11 MXFP8 recipes ran).")
    boolean overlapParamGather;

    @Option(names = "--flash-attention", negatable = true, defaultValue = "true", fallbackValue = "true",
            description = "Fused attention kernel (default on).")
    boolean flashAttention;

    @Option(names = "--finetune", paramLabel = "MODE", description = "full, lora or qlora (default full).")
    String finetune = "full";

    @Option(names = "--lora-rank", paramLabel = "R", description = "LoRA rank (default 16).")
    int loraRank = Defaults.LORA_RANK;

    @Option(names = "--lora-targets", paramLabel = "LIST", description = "q,k,v,o,gate,up,down or all (default all).")
    String loraTargets = "all";

    @Option(names = "--pruning", paramLabel = "KIND", description = "none, 2:4, or unstructured=FRACTION.")
    String pruning = "none";

    @Option(names = "--offload", paramLabel = "WHAT", description = "none, optimizer, weights or both.")
    String offload = "none";

    @Option(names = "--data-parallel", paramLabel = "N", description = "Data-parallel replicas (default 1).")
    int dataParallel = 1;

    @Option(names = "--tensor-parallel", paramLabel = "N", description = "Tensor-parallel degree; must divide the heads.")
    int tensorParallel = 1;

    @Option(names = "--pipeline-parallel", paramLabel = "N", description = "Pipeline stages (1F1B); an uneven split is "
            + "paced by its fullest stage.")
    int pipelineParallel = 1;

    @Option(names = "--virtual-stages", paramLabel = "V", description = "Virtual pipeline stages per device (interleaved "
            + "1F1B, Megatron's virtual_pipeline_model_parallel_size): the bubble shrinks V-fold (default 1).")
    int virtualStages = 1;

    @Option(names = "--context-parallel", paramLabel = "N", description = "Devices each sequence is split over (ring "
            + "attention, Megatron's context parallelism; default 1).")
    int contextParallel = 1;

    @Option(names = "--expert-parallel", paramLabel = "N", description = "Devices a mixture of experts' experts are "
            + "spread over (all-to-all dispatch and combine; must divide data x context x tensor parallel; default 1).")
    int expertParallel = 1;

    @Option(names = "--shard-group", paramLabel = "N", description = "With --zero 3: shard inside groups of N replicas "
            + "and replicate across them (hybrid sharding, FSDP HYBRID_SHARD; default 0: shard over all).")
    int shardGroup;

    @Option(names = "--zero", paramLabel = "STAGE", description = "ZeRO stage 0-3 over the data-parallel replicas.")
    int zeroStage;

    @Option(names = "--link", paramLabel = "ID", description = "Link the devices talk over (default: peer, else network).")
    String link;

    @Option(names = "--nodes", paramLabel = "N", description = "Machines the devices are spread over (default 1): across "
            + "nodes the data-parallel collectives run hierarchically, NVLink inside a node and the network across.")
    Integer nodes;

    @Option(names = "--gpus-per-node", paramLabel = "G", description = "Devices in each node; with --nodes, nodes x G must be "
            + "the devices (data x tensor x pipeline parallel); alone, it gives the nodes.")
    Integer gpusPerNode;

    @Option(names = "--trainer", paramLabel = "NAME", description = "The training framework whose fitted terms give the "
            + "expected step (trainers.tsv: typical, megatron, nemo, llm-foundry, pytorch-fsdp, deepspeed, hf-trainer, "
            + "llm.c, pytorch-eager, pytorch-compiled; default: typical, the typical PyTorch trainer). The roofline "
            + "is printed beside it as the bound.")
    String trainer;

    @Option(names = "--overlap-communication", description = "Hide the gradient all-reduce behind the backward pass.")
    boolean overlapCommunication;

    @Option(names = "--tenants", paramLabel = "K", description = "Processes sharing the device (default 1).")
    int tenants = 1;

    @Option(names = "--cpu-streams", paramLabel = "N", description = "CPU threads streaming memory alongside training "
            + "(data loading, tenants on the CPU): on a unified-memory GPU the device gets the profile's measured "
            + "sharing curve's share of its bandwidth (default 0).")
    int cpuStreams;

    // ---- decode ----

    @Option(names = "--decode", description = "Predict inference (decode tokens/s) instead of training.")
    boolean decode;

    @Option(names = "--weights", paramLabel = "SCHEME", description = "Decode weights as stored: a format for every tensor "
            + "(Q4_0, bf16, mxfp4, ... or bits per weight), a llama.cpp mix (Q4_K_M, Q5_K_M, Q6_K, Q8_0), a checkpoint "
            + "convention (gpt-oss-mxfp4, awq-int4-g128, gptq-int4-g128, fp8-block128, nvfp4-modelopt), or a base "
            + "with per-kind overrides (bf16,experts=mxfp4; kinds: experts, attention, dense-mlp, router, embedding, "
            + "lm-head, norms).")
    String weights = "bf16";

    @Option(names = "--context", paramLabel = "N", description = "Decode: tokens in each sequence's KV cache (default 4096).")
    int context = Defaults.DECODE_CONTEXT_TOKENS;

    @Option(names = "--batch", paramLabel = "N", description = "Decode: sequences decoded together (default 1).")
    int batch = Defaults.DECODE_BATCH;

    @Option(names = "--prompt", paramLabel = "N", description = "Decode: prompt tokens to prefill (default 512).")
    int prompt = Defaults.DECODE_PROMPT_TOKENS;

    @Option(names = "--kv-precision", paramLabel = "P", description = "Decode: KV-cache precision (default bf16).")
    String kvPrecision = "bf16";

    @Option(names = "--engine", paramLabel = "ENGINE", description = "Decode: the engine that runs it (llama.cpp, trt-llm, "
            + "vllm, sglang, pytorch-eager, pytorch-compiled): its GEMMs run in the precision its kernels use for these "
            + "weights (engines.tsv), at the efficiencies 'membound validate --published' fits for it on published "
            + "measurements (default: none, the roofline at the ceilings).")
    String engine;

    // ---- output ----

    @Mixin
    FormatOption format;

    @Option(names = "--operations", paramLabel = "N", description = "Operations to list, slowest first (default 12; 0 for all).")
    int operationsShown = 12;

    @picocli.CommandLine.Spec(picocli.CommandLine.Spec.Target.MIXEE)
    picocli.CommandLine.Model.CommandSpec mixee;

    /** Options that only training reads: with --decode each is an error naming both. */
    static final List<String> TRAINING_ONLY = List.of("--tokens", "--steps", "--seq-len", "--micro-batch",
            "--grad-accum", "--weights-precision", "--gradients-precision", "--optimizer-precision", "--master-weights",
            "--optimizer", "--checkpointing", "--finetune", "--lora-rank", "--lora-targets", "--pruning", "--offload",
            "--data-parallel", "--tensor-parallel", "--pipeline-parallel", "--zero", "--link", "--overlap-communication",
            "--operations", "--nodes", "--gpus-per-node", "--trainer", "--virtual-stages", "--context-parallel",
            "--expert-parallel", "--shard-group", "--recompute-modules", "--recompute-layers", "--attention-precision",
            "--attention-kernel", "--moe-dispatcher", "--overlap-expert-communication", "--overlap-param-gather");

    /** Options that only decode reads: without --decode each is an error. */
    static final List<String> DECODE_ONLY = List.of("--weights", "--context", "--batch", "--prompt", "--kv-precision",
            "--engine");

    /**
     * Checks the options against each other before anything is predicted: an option that the chosen mode does
     * not read is an error naming it and the mode, never silently ignored.
     */
    public void checkConsistent() {
        picocli.CommandLine.ParseResult parsed = mixee.commandLine().getParseResult();
        for (String option : decode ? TRAINING_ONLY : DECODE_ONLY) {
            if (parsed.hasMatchedOption(option)) {
                throw new BadInputException(option.substring(2) + (decode ? " must be left out with --decode (it "
                        + "sets up training, which decode does not run)" : " must be left out without --decode (it "
                        + "sets up decoding)") + ": " + option + "=" + parsed.matchedOption(option).getValue());
            }
        }
        boolean lora = !finetune.trim().equalsIgnoreCase("full");
        for (String option : List.of("--lora-rank", "--lora-targets")) {
            if (!lora && parsed.hasMatchedOption(option)) {
                throw new BadInputException(option.substring(2) + " must be left out unless --finetune is lora or "
                        + "qlora: " + option + "=" + parsed.matchedOption(option).getValue() + ", finetune=" + finetune);
            }
        }
        if (zeroStage > 0 && dataParallel == 1) {
            throw new BadInputException("zero must be 0 with one data-parallel replica (ZeRO shards over replicas): "
                    + "zero=" + zeroStage + ", data-parallel=" + dataParallel);
        }
        if (operationsShown < 0) {
            throw new BadInputException("operations must be 0 (all) or positive: operations=" + operationsShown);
        }
        if (link != null && dataParallel == 1 && tensorParallel == 1 && pipelineParallel == 1) {
            throw new BadInputException("link must be left out with one device (it names the link several devices "
                    + "talk over: give --data-parallel, --tensor-parallel or --pipeline-parallel N too): link=" + link);
        }
        if (device != null && !profile.given()) {
            throw new BadInputException("device must be left out without --profile (it picks a profile's device): "
                    + "device=" + device);
        }
    }

    /** Checks the options against the model's own limits: its context length and its layer width. */
    public void checkAgainst(Workload workload) {
        if (!(workload instanceof Transformer tf)) {
            return;
        }
        int tokensPerSequence = decode ? context : sequenceLength;
        // Only a length the user gave: the default (2048) is longer than GPT-2's 1024 and predicts as it always has.
        boolean given = mixee.commandLine().getParseResult().hasMatchedOption(decode ? "--context" : "--seq-len");
        if (decode && given && tf.maxPositions() > 0 && tokensPerSequence > tf.maxPositions()) {
            // Engines decode past the trained length (llama.cpp warns and goes on): a what-if, not an impossibility.
            warnings.add("warning: context " + tokensPerSequence + " is past the model's max_position_embeddings "
                    + tf.maxPositions() + " (" + tf.name() + "): predicted as asked; the model was not trained that far");
        } else if (given && tf.maxPositions() > 0 && tokensPerSequence > tf.maxPositions()) {
            throw new BadInputException((decode ? "context" : "seq-len") + " must be at most the model's "
                    + "max_position_embeddings (" + tf.maxPositions() + "): " + (decode ? "context=" : "seq-len=")
                    + tokensPerSequence + ", model=" + tf.name());
        }
        if (!decode && !finetune.trim().equalsIgnoreCase("full") && loraRank > tf.hiddenSize()) {
            throw new BadInputException("lora-rank must be at most the model's hidden size (" + tf.hiddenSize()
                    + "): lora-rank=" + loraRank + ", model=" + tf.name());
        }
    }

    private final List<String> warnings = new ArrayList<>();

    /** Warnings {@link #checkAgainst} found (a context past the trained length), each one line for stderr. */
    public List<String> warnings() {
        return List.copyOf(warnings);
    }

    /** The trainer --trainer names, or the default (typical PyTorch) one; unknown names get the close matches. */
    public Trainer trainer() {
        return trainer == null ? Trainer.defaultTrainer() : Trainer.parse(trainer);
    }

    /** Whether --trainer was given. */
    public boolean trainerNamed() {
        return trainer != null;
    }

    /** The nodes of --nodes and --gpus-per-node, checked against the devices in one line. */
    int nodes() {
        int devices = dataParallel * tensorParallel * pipelineParallel * Math.max(1, contextParallel);
        if (nodes != null && nodes <= 0) {
            throw new BadInputException("nodes must be positive: nodes=" + nodes);
        }
        if (gpusPerNode != null && gpusPerNode <= 0) {
            throw new BadInputException("gpus-per-node must be positive: gpus-per-node=" + gpusPerNode);
        }
        if (nodes != null && gpusPerNode != null && (long) nodes * gpusPerNode != devices) {
            throw new BadInputException("nodes x gpus-per-node must equal the devices (data x tensor x pipeline x "
                    + "context parallel = " + devices + "): nodes=" + nodes + ", gpus-per-node=" + gpusPerNode);
        }
        if (nodes == null && gpusPerNode != null) {
            if (devices % gpusPerNode != 0) {
                throw new BadInputException("gpus-per-node must divide the devices (data x tensor x pipeline x context "
                        + "parallel = " + devices + "): gpus-per-node=" + gpusPerNode);
            }
            return devices / gpusPerNode;
        }
        return nodes == null ? 1 : nodes;
    }

    /** The format asked for; checked here, at the point predict always checked it. */
    public OutputFormat format() {
        return format.value();
    }

    public ProfileOption profile() {
        return profile;
    }

    /** The --hardware entry, or null. */
    public String hardware() {
        return hardware;
    }

    /** The --device of the profile to run on, or null for its GPU, else its CPU. */
    /** CPU threads streaming alongside training ({@code --cpu-streams}). */
    public int cpuStreams() {
        return cpuStreams;
    }

    public String device() {
        return device;
    }

    /**
     * The --compare machines, each a catalog entry (an unknown one is an error with close matches, not a row) or
     * {@code profile:FILE} (a file, latest or latest:host), which must name something.
     */
    public List<String> compare() {
        compare.stream().filter(name -> !name.startsWith("profile:")).forEach(PredictOptions::knownMachine);
        for (String name : compare) {
            if (name.equals("profile:")) {
                throw new BadInputException("--compare profile: must name a profile file (profile:FILE, profile:latest): "
                        + "--compare=" + String.join(",", compare));
            }
        }
        return List.copyOf(compare);
    }

    /** The what-if bandwidths and FLOP rates; one for a machine must name a machine of the run. */
    public Overrides overrides() {
        return overrides(List.of());
    }

    /**
     * The what-if bandwidths and FLOP rates; one for a machine must name a catalog entry that the run predicts on
     * ({@code --hardware}, {@code --compare}, or {@code runsOn}, the machines a command adds of its own), or the
     * profile: a what-if for a machine not in the run would change nothing and say nothing.
     */
    public Overrides overrides(List<String> runsOn) {
        Overrides overrides = Overrides.parse(memoryBandwidth, peakFlops);
        membound.hardware.catalog.Catalog catalog = membound.hardware.catalog.Catalog.builtIn();
        List<String> inRun = new ArrayList<>();
        List<String> named = new ArrayList<>(compare);
        named.addAll(runsOn);
        if (hardware != null) {
            named.add(hardware);
        }
        for (String name : named) {
            catalog.find(name).ifPresent(spec -> inRun.add(spec.id()));
        }
        for (Overrides.Entry entry : overrides.entries()) {
            if (entry.machine() != null && !entry.machine().startsWith("profile")) {
                String option = entry.text().substring(2).split(" ")[0];
                String id;
                try {
                    id = catalog.require(entry.machine()).id();
                } catch (BadInputException e) {
                    throw new BadInputException(option + " machine must be a catalog "
                            + "entry or profile: " + entry.text().strip() + " (" + e.getMessage() + ")");
                }
                if (!inRun.contains(id)) {
                    throw new BadInputException(option + " machine must be one this run predicts on ("
                            + (inRun.isEmpty() ? "no catalog entry; add it with --compare " + id
                            : String.join(", ", inRun) + (profile.given() ? ", profile" : "")) + "): "
                            + entry.text().strip());
                }
            }
        }
        return overrides;
    }

    /** A name of the catalog, or its close matches; whether the model can predict on it is the run's to say. */
    private static void knownMachine(String name) {
        membound.hardware.catalog.Catalog.builtIn().require(name);
    }

    public boolean decode() {
        return decode;
    }

    public int operationsShown() {
        return operationsShown;
    }

    /** The engine --engine names, or null for none. */
    public String engine() {
        return engine;
    }

    /** The decode setup of the options; the KV cache, then the activations, are checked in that order. */
    public DecodeSetup decodeSetup() {
        return new DecodeSetup(context, batch, prompt, WeightScheme.parse(weights),
                Precision.parseTraining("kv-precision", kvPrecision),
                activationsPrecision != null ? Precision.parseTraining("activations-precision", activationsPrecision)
                        : precision != null ? Precision.parseTraining("precision", precision) : Defaults.ACTIVATION_PRECISION,
                tenants);
    }

    /** Whether --model or --mlp was given (membound trace compares with a prediction only then). */
    public boolean workloadGiven() {
        return model != null || mlp != null;
    }

    /** The options a command that does not predict on several machines must not be given, as typed; empty if none. */
    public java.util.Optional<String> comparing() {
        return compare.isEmpty() ? java.util.Optional.empty() : java.util.Optional.of(String.join(",", compare));
    }

    /** The workload of --model or --mlp: exactly one must be given. */
    public Workload workload() {
        if ((model == null) == (mlp == null)) {
            throw new BadInputException("workload must be given once: --model PRESET|config.json (presets: "
                    + String.join(", ", Presets.NAMES) + ") or --mlp W0,W1,...");
        }
        if (model != null) {
            return Presets.resolve(model);
        }
        List<Integer> widths = new ArrayList<>();
        for (String part : mlp.split(",")) {
            try {
                widths.add(Integer.parseInt(part.trim()));
            } catch (NumberFormatException e) {
                throw new BadInputException("mlp widths must be positive integers: mlp=" + mlp);
            }
        }
        return new Mlp(null, "command line --mlp " + mlp, widths, Activation.RELU, true);
    }

    /** The training setup of the options; tokens or steps, not both. */
    public TrainingSetup trainingSetup() {
        TrainingSetup.Builder b = TrainingSetup.builder()
                .sequenceLength(sequenceLength)
                .microBatchSize(microBatch)
                .gradientAccumulation(gradientAccumulation);
        if (precision != null) {
            b.precision(Precision.parseTraining("precision", precision));
        }
        if (weightsPrecision != null) {
            b.weightPrecision(Precision.parseTraining("weights-precision", weightsPrecision));
        }
        if (activationsPrecision != null) {
            b.activationPrecision(Precision.parseTraining("activations-precision", activationsPrecision));
        }
        if (gradientsPrecision != null) {
            b.gradientPrecision(Precision.parseTraining("gradients-precision", gradientsPrecision));
        }
        if (optimizerPrecision != null) {
            b.optimizerStatePrecision(Precision.parseTraining("optimizer-precision", optimizerPrecision));
        }
        b.masterWeights(masterWeights)
                .optimizer(Optimizer.parse(optimizer))
                .checkpointing(Checkpointing.parse(checkpointing))
                .flashAttention(flashAttention)
                .fineTuning(fineTuning())
                .pruning(Pruning.parse(pruning))
                .offload(Offload.parse(offload))
                .parallelism(new Parallelism(dataParallel, tensorParallel, pipelineParallel, contextParallel,
                        virtualStages, expertParallel, zeroStage, shardGroup, link, nodes()))
                .tenants(tenants)
                .overlapCommunication(overlapCommunication || trainer().overlapsCommunication())
                .moeDispatcher(moeDispatcher == null ? null : membound.model.training.MoeDispatcher.parse(moeDispatcher))
                .overlapExpertCommunication(overlapExpertCommunication)
                .overlapParameterGather(overlapParamGather)
                .recomputeLayers(recomputeLayers)
                .attentionKernel(attentionKernel != null ? membound.model.training.AttentionKernel.parse(attentionKernel)
                        : trainer().attentionKernel(null));
        if (recomputeModules != null) {
            b.recomputeModules(membound.model.training.RecomputeModule.parseList(recomputeModules));
        }
        if (attentionPrecision != null) {
            b.attentionPrecision(Precision.parseTraining("attention-precision", attentionPrecision));
        }
        if (tokens != null && steps != null) {
            throw new BadInputException("tokens and steps must not both be given: tokens=" + tokens + ", steps=" + steps);
        }
        if (tokens != null) {
            b.tokens(Counts.parse("tokens", tokens));
        }
        if (steps != null) {
            b.steps(Counts.parse("steps", steps));
        }
        return b.build();
    }

    private FineTuning fineTuning() {
        return switch (finetune.trim().toLowerCase(java.util.Locale.ROOT)) {
            case "full" -> FineTuning.full();
            case "lora" -> FineTuning.lora(loraRank, LoraTarget.parseList(loraTargets));
            case "qlora" -> FineTuning.qlora(loraRank, LoraTarget.parseList(loraTargets));
            default -> throw new BadInputException("finetune must be full, lora or qlora: finetune=" + finetune);
        };
    }

    /** Preset names for help and completion. */
    static final class PresetNames extends ArrayList<String> {
        private static final long serialVersionUID = 1L;

        PresetNames() {
            super(Presets.NAMES);
        }
    }

    /** Catalog ids for help and completion. */
    static final class CatalogNames extends ArrayList<String> {
        private static final long serialVersionUID = 1L;

        CatalogNames() {
            super(Machines.catalogIds());
        }
    }
}
