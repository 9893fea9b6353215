package membound.model.training;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Locale;

import membound.model.machine.ComputeCeiling;
import membound.model.machine.Link;
import membound.model.machine.Machine;
import membound.model.roofline.Kernel;
import membound.model.roofline.Operation;
import membound.model.roofline.OperationClass;
import membound.model.roofline.OperationList;
import membound.model.roofline.Placement;
import membound.model.workload.Mlp;
import membound.model.workload.Transformer;
import membound.model.workload.Workload;
import membound.vocabulary.AccessPattern;
import membound.vocabulary.BadInputException;
import membound.vocabulary.Precision;

/**
 * Turns a workload and a training setup into one device's operations for one optimizer step:
 * forward, backward and recompute per micro-batch, then the optimizer step, the collectives of the
 * parallel layout and the transfers of offloading. The machine is consulted only for what changes
 * the plan itself (unified memory, sparse units, a host to offload to), never for ceilings.
 */
public final class StepPlanner {

    private StepPlanner() {
    }

    public static StepPlan plan(Workload workload, TrainingSetup setup, Machine machine) {
        return plan(workload, setup, machine, true);
    }

    /**
     * @param withOperations false to lay the step out for the memory model only (what a device
     *        holds), without listing its operations: what the fit advisor needs, many times over
     */
    public static StepPlan plan(Workload workload, TrainingSetup setup, Machine machine, boolean withOperations) {
        // The memory model's plan lists no operations: it needs no room for them (the fit advisor plans many).
        return plan(workload, setup, machine, withOperations, withOperations ? new Buffers() : null);
    }

    /**
     * The lists one plan is written into, kept for the next: a sweep that plans step after step into
     * one {@code Buffers} allocates nothing per operation. Not for sharing between threads.
     */
    public static final class Buffers {
        private final OperationList rows;

        /** Buffers whose plans can be read operation by operation. */
        public Buffers() {
            this(false);
        }

        /** @param forSweeps plans only summed: no operation names kept (see {@link OperationList#forSweeps}) */
        public Buffers(boolean forSweeps) {
            this(forSweeps, 96);
        }

        private Buffers(boolean forSweeps, int rows) {
            this.rows = forSweeps ? OperationList.forSweeps(rows) : new OperationList(rows);
        }

        /** The last transformer planned and its parameter count: a sweep plans one model many times. */
        private Transformer counted;
        private double countedTotal;
        private FineTuning countedTuning;
        private double countedTrainable;

        double total(Transformer tf) {
            if (tf != counted) {
                counted = tf;
                countedTotal = tf.parameters().total();
                countedTuning = null;
            }
            return countedTotal;
        }

        double trainable(Transformer tf, FineTuning ft) {
            total(tf);
            if (ft != countedTuning && !ft.equals(countedTuning)) {
                countedTuning = ft;
                countedTrainable = LoraParameters.count(tf, ft);
            }
            return countedTrainable;
        }
    }

    /**
     * {@link #plan(Workload, TrainingSetup, Machine)} written into {@code buffers}: the plan's rows are the
     * buffers' and change when they are planned into again (read them with {@link StepPlan#operations()} first
     * to keep them).
     */
    public static StepPlan plan(Workload workload, TrainingSetup setup, Machine machine, Buffers buffers) {
        return plan(workload, setup, machine, true, buffers);
    }

    private static StepPlan plan(Workload workload, TrainingSetup setup, Machine machine, boolean withOperations,
                                 Buffers buffers) {
        checkLayout(workload, setup.parallelism());
        List<String> notes = new ArrayList<>();
        Parallelism par = setup.parallelism();

        int traits = machineTraits(setup, machine);
        Offload offload = setup.offload();
        if ((traits & UNIFIED_MEMORY) != 0) {
            notes.add(machine.name() + " has unified memory: offloading " + offload.label()
                    + " to host memory adds no capacity (it is the same memory) and was ignored");
            offload = Offload.NONE;
        }
        if (offload.weights() && !offload.optimizerStates()) {
            notes.add("offloading weights implies offloading optimizer states and the update (as ZeRO-Infinity does)");
            offload = new Offload(true, true);
        }
        if (offload.any() && (traits & HOST_AND_LINK) == 0) {
            throw new BadInputException("offload needs a host memory and a host link: machine=" + machine.id()
                    + " has " + (machine.host() == null ? "no host memory" : "no host link"));
        }

        Precision compute = setup.activationPrecision();
        ComputeCeiling ceiling = machine.device().computeFor(compute);
        if (ceiling != null && ceiling.precision() != compute) {
            notes.add(machine.device().name() + " has no " + compute.label() + " compute ceiling: GEMMs in "
                    + compute.label() + " run at its " + ceiling.precision().label() + " rate");
        }

        FineTuning ft = setup.fineTuning();
        double baseBits = ft.mode() == FineTuning.Mode.QLORA ? FineTuning.QLORA_BASE_BITS_PER_WEIGHT
                : setup.weightPrecision().bits();
        double weightBits = setup.pruning().storedBitsPerWeight(baseBits);
        boolean sparse = (traits & SPARSE_UNITS) != 0;
        if (setup.pruning().kind() == Pruning.Kind.STRUCTURED_2_4) {
            notes.add(sparse ? "2:4 structured sparsity: forward GEMMs run on the sparse tensor throughput; "
                    + "input and weight gradients run dense"
                    : machine.device().name() + " has no 2:4 sparse throughput in " + compute.label()
                    + ": pruning saves weight memory and bytes only");
        } else if (setup.pruning().kind() == Pruning.Kind.UNSTRUCTURED) {
            notes.add(String.format(Locale.ROOT, "unstructured sparsity %.0f%%: dense kernels, compute unchanged; weights "
                    + "stored compressed (values plus a 1-bit mask) save memory and weight bytes", 100 * setup.pruning().sparsity()));
        }
        if (ft.mode() == FineTuning.Mode.QLORA && setup.weightPrecision() != Precision.BF16
                && setup.weightPrecision() != Precision.FP16) {
            notes.add("QLoRA keeps its adapters in " + setup.weightPrecision().label() + " and its base in NF4");
        }

        // Forward, backward and recompute rows go into one list as they come; it reads them in class order. A
        // transformer's plan for the memory model lists none; an MLP's is small and listed anyway.
        OperationList ops = withOperations ? buffers.rows
                : workload instanceof Transformer ? OperationList.NONE : new OperationList(16);
        if (withOperations) {
            ops.clear();
        }
        OperationList forward = ops;
        OperationList backward = ops;
        OperationList recompute = ops;
        double microBatches = setup.gradientAccumulation();
        // Activations are stored in their own precision; low-precision training quantizes a GEMM's inputs, not what
        // the norms, residuals and activation functions read and write.
        double e = setup.storedActivationPrecision().bytesPerElement();
        double g = setup.gradientPrecision().bytesPerElement();
        double parametersOnDevice;
        double trainable;
        double trainableOnDevice;
        // What ZeRO divides the device's share by: the dense weights' gradient group and the experts' own, weighted.
        double shardDivisor;
        double expertShare = 0;
        int t = par.tensorParallel();
        int p = par.pipelineParallel();

        if (workload instanceof Transformer tf) {
            double total = buffers != null ? buffers.total(tf) : tf.parameters().total();
            double experts = tf.parameters().experts();
            // Experts are split over the expert-parallel devices (whole experts) or, without, by tensor parallelism.
            double expertSplit = par.expertParallel() > 1 ? par.expertParallel() : t;
            parametersOnDevice = ((total - experts) / t + experts / expertSplit) / p;
            expertShare = parametersOnDevice == 0 ? 0 : experts / expertSplit / p / parametersOnDevice;
            trainable = !ft.adapters() ? total : buffers != null ? buffers.trainable(tf, ft) : LoraParameters.count(tf, ft);
            trainableOnDevice = trainable * parametersOnDevice / total;
            shardDivisor = shardDivisor(par, expertShare);
            if (!withOperations) {
                return new StepPlan(workload, setup, ops, compute, parametersOnDevice, trainable, trainableOnDevice,
                        weightBits, offload.optimizerStates(), offload.weights(), notes, shardDivisor);
            }
            TransformerPass.Settings settings = new TransformerPass.Settings(true, compute, e, weightBits,
                    ft.mode() == FineTuning.Mode.QLORA, g, !ft.adapters(), ft,
                    setup.weightPrecision().bytesPerElement(), sparse, t, setup.flashAttention(),
                    setup.checkpointing(), e, Map.of(), par.expertParallel(), setup.recomputeModules(),
                    setup.attentionComputePrecision());
            int c = par.contextParallel();
            // Context parallelism: each device runs 1/c of every sequence; its queries attend over the whole sequence
            // with an equal share of the causal work.
            TransformerPass.Shape shape = new TransformerPass.Shape(setup.microBatchSize(),
                    (double) setup.sequenceLength() / c, setup.sequenceLength(), true, false, false,
                    c > 1 ? (setup.sequenceLength() + 1) / 2.0 : Double.NaN);
            // The stage that paces the pipeline: L / p layers and the output layer when the layers divide evenly; else
            // the fullest stage, ceil(L / p) layers, the output layer sitting on a stage with fewer (Megatron's
            // account_for_loss_in_pipeline_split, or a layout that gives the last stage fewer layers).
            int layers = tf.layers();
            boolean even = layers % p == 0;
            double stageLayers = even ? (double) layers / p : Math.ceil((double) layers / p);
            if (!even) {
                notes.add(String.format(Locale.ROOT, "%d layers over %d pipeline stages do not divide evenly: the "
                        + "fullest stage, %.0f layers, paces the pipeline and the output layer is taken to sit on a "
                        + "stage with fewer", layers, p, stageLayers));
            }
            int recomputed = setup.checkpointing() == Checkpointing.FULL ? setup.recomputeLayers() : 0;
            if (recomputed > 0 && recomputed < stageLayers) {
                // Megatron's block method: the first N layers of each stage recompute, the rest keep their activations.
                TransformerPass.append(tf, shape, settings, recomputed, microBatches, true, false, ops);
                TransformerPass.append(tf, shape, settings.withCheckpointing(Checkpointing.NONE),
                        stageLayers - recomputed, microBatches, false, even, ops);
            } else {
                TransformerPass.append(tf, shape, settings, stageLayers, microBatches, true, even, ops);
            }
        } else {
            Mlp mlp = (Mlp) workload;
            if (ft.adapters()) {
                throw new BadInputException("fine-tuning must be full for an mlp workload: fineTuning=" + ft.mode().label());
            }
            appendMlp(mlp, setup, weightBits, sparse, compute, forward, backward, recompute);
            parametersOnDevice = mlp.parameters().total();
            trainable = parametersOnDevice;
            trainableOnDevice = trainable;
            shardDivisor = shardDivisor(par, 0);
        }

        optimizer(setup, trainableOnDevice / (par.zeroStage() >= 1 ? shardDivisor : 1), offload.optimizerStates(), ops,
                trainableOnDevice / (par.zeroStage() >= 2 ? shardDivisor : 1));
        communication(workload, setup, parametersOnDevice, trainableOnDevice, expertShare, weightBits, ops);
        offloadTransfers(setup, offload, parametersOnDevice, trainableOnDevice, weightBits, ops);
        if (setup.checkpointing() == Checkpointing.SELECTIVE && setup.flashAttention()
                && (setup.recomputeModules().isEmpty()
                || setup.recomputeModules().equals(java.util.Set.of(RecomputeModule.CORE_ATTN)))) {
            notes.add("selective checkpointing with FlashAttention recomputes nothing extra: the fused kernel "
                    + "already keeps no attention scores");
        }
        return new StepPlan(workload, setup, ops, compute, parametersOnDevice, trainable, trainableOnDevice, weightBits,
                offload.optimizerStates(), offload.weights(), notes, shardDivisor);
    }

    /**
     * What ZeRO divides a device's parameters by: the ranks they are sharded over, the dense weights over the data x
     * context parallel group (or the hybrid shard group), the experts' share over their own gradient group.
     */
    static double shardDivisor(Parallelism par, double expertShare) {
        double dense = par.shardGroup() > 0 ? par.shardGroup() : par.gradientGroup();
        double experts = par.shardGroup() > 0 ? par.shardGroup() : par.expertGradientGroup();
        return 1 / ((1 - expertShare) / dense + expertShare / experts);
    }

    /** The setup offloads to a machine with unified memory: the offload is ignored. */
    private static final int UNIFIED_MEMORY = 1;
    /** The setup offloads and the machine has a host memory and a host link to offload to. */
    private static final int HOST_AND_LINK = 2;
    /** The setup prunes 2:4 and the device has sparse throughput in its compute precision. */
    private static final int SPARSE_UNITS = 4;

    /**
     * What a plan of {@code setup} reads of the machine, as bits: every other figure of a plan comes from the workload
     * and the setup, so two machines with the same bits get the same operations (only the notes may name the
     * machine). A sweep that predicts one setup on several machines plans it once per distinct bits.
     */
    public static int machineTraits(TrainingSetup setup, Machine machine) {
        int traits = 0;
        if (setup.offload().any()) {
            if (machine.device().unifiedMemory()) {
                traits |= UNIFIED_MEMORY;
            }
            if (machine.host() != null && machine.link(Link.Kind.HOST) != null) {
                traits |= HOST_AND_LINK;
            }
        }
        if (setup.pruning().kind() == Pruning.Kind.STRUCTURED_2_4) {
            ComputeCeiling ceiling = machine.device().computeFor(setup.activationPrecision());
            if (ceiling != null && ceiling.hasSparse()) {
                traits |= SPARSE_UNITS;
            }
        }
        return traits;
    }

    /**
     * The optimizer step alone for {@code parameters} trainable parameters on one device, as
     * {@link #plan} lists it: for a benchmark that times only an optimizer (membound validate).
     */
    public static List<Operation> optimizerStep(TrainingSetup setup, double parameters) {
        OperationList ops = new OperationList(3);
        Parallelism par = setup.parallelism();
        double divisor = shardDivisor(par, 0);
        optimizer(setup, parameters / (par.zeroStage() >= 1 ? divisor : 1), false, ops,
                parameters / (par.zeroStage() >= 2 ? divisor : 1));
        return ops.operations();
    }

    /**
     * The optimizer step: global-norm gradient clipping (a read of every gradient), the update
     * (reads weights or master weights, gradients and states, and writes weights and states back
     * in place: the {@link AccessPattern#UPDATE} pattern), and zeroing the gradient buffer for the
     * next step. Runs on the host when the optimizer is offloaded.
     */
    private static void optimizer(TrainingSetup setup, double shard, boolean onHost, OperationList ops,
                                  double gradientShard) {
        double g = setup.gradientPrecision().bytesPerElement();
        double w = setup.weightPrecision().bytesPerElement();
        Optimizer opt = setup.optimizer();
        double state = opt.stateBytesPerParameter(setup.optimizerStatePrecision());
        boolean master = setup.keepsMasterWeights();
        Placement where = onHost ? Placement.HOST : Placement.DEVICE;
        ops.add("gradient norm (clipping)", null, OperationClass.OPTIMIZER, Kernel.ELEMENTWISE, Precision.FP32,
                where, 1, 2 * shard, 0, shard * g, 0, AccessPattern.READ);
        double read = (master ? 4 : w) + opt.gradientReads() * g + state;
        double written = (master ? 4 + w : w) + state;
        // In place: weights (or master weights) and states are read and written back.
        ops.add(opt.updateName(), null, OperationClass.OPTIMIZER, Kernel.ELEMENTWISE, Precision.FP32, where, 1,
                opt.flopsPerParameter() * shard, 0, shard * read, shard * written, AccessPattern.UPDATE);
        ops.add("zero gradients", null, OperationClass.OPTIMIZER, Kernel.ELEMENTWISE, Precision.FP32,
                Placement.DEVICE, 1, 0, 0, 0, gradientShard * g, AccessPattern.WRITE);
    }

    /**
     * Collectives, each on the link its group's ranks span (ranks laid out tensor parallel fastest, then context, data
     * and pipeline parallel, as Megatron orders them). Ring all-reduce sends 2(n-1)/n of the buffer per device in 2(n-1)
     * messages, an all-gather (n-1)/n in n-1 (Patarasuk and Yuan 2009; NCCL's bus bandwidth convention).
     * <ul>
     * <li>Data parallel: one gradient all-reduce per step over the data x context parallel ranks (ZeRO-1/2 replace it
     * by a reduce-scatter plus an all-gather of the same volume; ZeRO-3 adds weight all-gathers for every forward,
     * backward and recompute pass); the experts' gradients over their own group (the stage's ranks over the
     * expert-parallel ones). Hybrid sharding reduce-scatters and gathers inside the shard group and all-reduces each
     * shard across the replicas, over the network. On the parallel link ({@link membound.model.Estimator#parallelLink}:
     * NCCL's hierarchical ring where the group spans nodes).</li>
     * <li>Tensor parallel: two all-reduces of the layer's activations in the forward pass and two in the backward
     * (Megatron-LM), inside the node.</li>
     * <li>Context parallel: ring attention passes each device's keys and values c - 1 times around the group per layer
     * in the forward pass (and the recompute), keys, values and their gradients in the backward.</li>
     * <li>Expert parallel: each MoE layer's all-to-all dispatch and combine, forward and backward, of the routed rows
     * leaving the device: inside the node over NVLink, the rest over the network.</li>
     * <li>Pipeline: activations to the next stage, gradients back, per micro-batch and virtual stage.</li>
     * </ul>
     * Context, expert and pipeline traffic that leaves the node runs on one GPU's network link; nothing but the
     * data-parallel reduction (and, where the setup asks for Megatron-Core's expert-parallel overlap, the experts'
     * all-to-all) overlaps compute.
     */
    private static void communication(Workload workload, TrainingSetup setup, double parametersOnDevice,
                                      double trainableOnDevice, double expertShare, double weightBits,
                                      OperationList ops) {
        Parallelism par = setup.parallelism();
        double g = setup.gradientPrecision().bytesPerElement();
        double e = setup.storedActivationPrecision().bytesPerElement();
        double m = setup.gradientAccumulation();
        boolean full = setup.checkpointing() == Checkpointing.FULL;
        int perNode = par.devicesPerNode();
        int t = par.tensorParallel();
        int c = par.contextParallel();
        double weightBytes = parametersOnDevice * weightBits / 8;
        double passes = m * (full ? 3 : 2);
        if (par.shardGroup() > 0) {
            int group = par.shardGroup();
            int replicas = par.gradientGroup() / group;
            Placement inside = group * t * c <= perNode ? Placement.NODE_LINK : Placement.PARALLEL_LINK;
            if (group > 1) {
                ops.addTransfer("gradient reduce-scatter (shard group of " + group + ")", OperationClass.COMMUNICATION,
                        inside, 1, (double) (group - 1) / group * trainableOnDevice * g, group - 1,
                        setup.overlapCommunication());
                ops.addTransfer("weight all-gather (shard group of " + group + ")", OperationClass.COMMUNICATION,
                        inside, passes, (double) (group - 1) / group * weightBytes, group - 1,
                        setup.overlapCommunication());
            }
            if (replicas > 1) {
                ops.addTransfer("gradient shard all-reduce across " + replicas + " replicas",
                        OperationClass.COMMUNICATION, par.nodes() > 1 ? Placement.NETWORK_LINK : Placement.NODE_LINK,
                        1, 2.0 * (replicas - 1) / replicas * trainableOnDevice / group * g, 2.0 * (replicas - 1),
                        setup.overlapCommunication());
            }
        } else {
            int dense = par.gradientGroup();
            int experts = par.expertGradientGroup();
            double denseShare = 1 - expertShare;
            // ZeRO-3 reduce-scatters the gradients ((n-1)/n: the weights are gathered again before each pass);
            // ZeRO-1/2 (a distributed optimizer) reduce-scatter them and all-gather the updated shards after the step,
            // (n-1)/n each, the gather hidden behind the next step's forward only where the parameter-gather overlap is
            // on; without ZeRO they are all-reduced, 2(n-1)/n.
            boolean zero3 = par.zeroStage() == 3;
            boolean distributedOptimizer = par.zeroStage() == 1 || par.zeroStage() == 2;
            double w = setup.weightPrecision().bytesPerElement();
            boolean gatherHidden = setup.overlapCommunication() && setup.overlapParameterGather();
            if (dense > 1 && denseShare > 0) {
                dataParallelReduction(ops, "data-parallel", dense, trainableOnDevice * denseShare, g, w, zero3,
                        distributedOptimizer, setup.overlapCommunication(), gatherHidden);
            }
            if (experts > 1 && expertShare > 0) {
                dataParallelReduction(ops, "expert data-parallel", experts, trainableOnDevice * expertShare, g, w,
                        zero3, distributedOptimizer, setup.overlapCommunication(), gatherHidden);
            }
            if (zero3 && (dense > 1 || experts > 1)) {
                // Prefetched layer by layer (FSDP, DeepSpeed ZeRO-3): it may hide behind the passes.
                ops.addTransfer("ZeRO-3 weight all-gather", OperationClass.COMMUNICATION,
                        Placement.PARALLEL_LINK, passes, ((double) (dense - 1) / dense * denseShare
                                + (double) (experts - 1) / experts * expertShare) * weightBytes, dense - 1,
                        setup.overlapCommunication());
            }
        }
        if (!(workload instanceof Transformer tf)) {
            return;
        }
        int p = par.pipelineParallel();
        double rows = (double) setup.tokensPerMicroBatch() / c;
        double activation = rows * tf.hiddenSize() * e;
        double layers = stageLayers(tf, p);
        double recomputedLayers = !full ? 0 : setup.recomputeLayers() > 0 ? Math.min(setup.recomputeLayers(), layers)
                : layers;
        if (t > 1) {
            double allReduce = 2.0 * (t - 1) / t * activation;
            ops.addTransfer("tensor-parallel all-reduces (forward)", OperationClass.COMMUNICATION,
                    Placement.NODE_LINK, (layers + recomputedLayers) * m, 2 * allReduce, 4.0 * (t - 1), false);
            ops.addTransfer("tensor-parallel all-reduces (backward)", OperationClass.COMMUNICATION,
                    Placement.NODE_LINK, layers * m, 2 * allReduce, 4.0 * (t - 1), false);
            if (tf.hasEmbeddings()) {
                ops.addTransfer("vocabulary-parallel embedding and loss all-reduces",
                        OperationClass.COMMUNICATION, Placement.NODE_LINK, m, 2 * allReduce, 4.0 * (t - 1), false);
            }
        }
        if (c > 1) {
            // Ring attention: each step sends this device's chunk of keys and values (of its tensor-parallel heads) on.
            double chunk = rows * keyValueElementsPerToken(tf, t) * e;
            Placement ring = t * c <= perNode ? Placement.NODE_LINK : Placement.NETWORK_LINK;
            ops.addTransfer("context-parallel key/value ring (forward)", OperationClass.COMMUNICATION, ring,
                    (layers + recomputedLayers) * m, (c - 1) * chunk, c - 1, false);
            ops.addTransfer("context-parallel key/value ring (backward: keys, values and their gradients)",
                    OperationClass.COMMUNICATION, ring, layers * m, 2.0 * (c - 1) * chunk, 2.0 * (c - 1), false);
        }
        int ep = par.expertParallel();
        if (ep > 1 && tf.expertLayers() > 0) {
            // Per MoE layer: dispatch and combine in the forward pass (and the recompute), their transposes backward.
            double moeLayers = layers * tf.expertLayers() / tf.layers();
            double routed = rows / t * tf.experts().expertsPerToken() * tf.hiddenSize() * e;
            int local = Math.min(ep, perNode);
            double count = (2 * (moeLayers + recomputedLayers * tf.expertLayers() / tf.layers()) + 2 * moeLayers) * m;
            // Megatron-Core's expert-parallel overlap hides one micro-batch's all-to-all behind another's compute.
            boolean hidden = setup.overlapExpertCommunication();
            if (local > 1) {
                ops.addTransfer("expert-parallel all-to-all inside the node", OperationClass.COMMUNICATION,
                        Placement.NODE_LINK, count, routed * (local - 1) / ep, local - 1, hidden);
            }
            if (ep > local) {
                ops.addTransfer("expert-parallel all-to-all across nodes", OperationClass.COMMUNICATION,
                        Placement.NETWORK_LINK, count, routed * (ep - local) / ep, ep - local, hidden);
            }
        }
        if (p > 1) {
            // Interleaved 1F1B: a micro-batch crosses every virtual stage boundary, v times as many sends per device.
            ops.addTransfer("pipeline sends (activations forward, gradients back)",
                    OperationClass.COMMUNICATION, par.nodes() > 1 ? Placement.NETWORK_LINK : Placement.NODE_LINK,
                    m * par.virtualStages(), 2 * activation / t, 2, false);
        }
    }

    /**
     * One group's gradient reduction over {@code n} ranks: ZeRO-3's reduce-scatter; a distributed optimizer's
     * reduce-scatter and its all-gather of the updated parameters (in the weights' precision), the gather overlapped
     * only where {@code gatherHidden}; else an all-reduce (Patarasuk and Yuan's ring volumes).
     */
    private static void dataParallelReduction(OperationList ops, String group, int n, double trainable, double g,
                                              double w, boolean zero3, boolean distributedOptimizer, boolean overlap,
                                              boolean gatherHidden) {
        double share = (double) (n - 1) / n;
        if (zero3) {
            ops.addTransfer(group + " gradient reduce-scatter", OperationClass.COMMUNICATION, Placement.PARALLEL_LINK, 1,
                    share * trainable * g, n - 1, overlap);
        } else if (distributedOptimizer) {
            ops.addTransfer(group + " gradient reduce-scatter (distributed optimizer)", OperationClass.COMMUNICATION,
                    Placement.PARALLEL_LINK, 1, share * trainable * g, n - 1, overlap);
            ops.addTransfer(group + " parameter all-gather (distributed optimizer)", OperationClass.COMMUNICATION,
                    Placement.PARALLEL_LINK, 1, share * trainable * w, n - 1, gatherHidden);
        } else {
            ops.addTransfer(group + " gradient all-reduce", OperationClass.COMMUNICATION, Placement.PARALLEL_LINK, 1,
                    2 * share * trainable * g, 2.0 * (n - 1), overlap);
        }
    }

    /** The layers of the stage that paces the pipeline: L / p, or ceil(L / p) where they do not divide evenly. */
    public static double stageLayers(Transformer tf, int pipelineParallel) {
        return Math.ceil((double) tf.layers() / pipelineParallel);
    }

    /**
     * Key and value elements per token of one layer a context-parallel ring passes on, for one device's
     * tensor-parallel heads: 2 x KV heads x head width, latent attention's up-projected keys and values per head.
     */
    private static double keyValueElementsPerToken(Transformer tf, int t) {
        if (tf.latentAttention().present()) {
            return (double) tf.attentionHeads() / t * (tf.latentAttention().queryKeyHeadDimension()
                    + tf.valueHeadDimension());
        }
        return 2 * Math.max(1.0, (double) tf.keyValueHeads() / t) * tf.headDimension();
    }

    /**
     * Offloading over the host link: gradients down and updated weights back once per step for an
     * offloaded optimizer (ZeRO-Offload, Ren et al. 2021); every weight in for each forward and
     * backward pass (and recompute) for offloaded weights (ZeRO-Infinity, Rajbhandari et al. 2021).
     * Transfers are not overlapped with compute: a bound, not a schedule.
     */
    private static void offloadTransfers(TrainingSetup setup, Offload offload, double parametersOnDevice,
                                         double trainableOnDevice, double weightBits, OperationList ops) {
        double g = setup.gradientPrecision().bytesPerElement();
        double w = setup.weightPrecision().bytesPerElement();
        if (offload.optimizerStates()) {
            ops.addTransfer("gradients to host", OperationClass.OFFLOAD, Placement.HOST_LINK, 1,
                    trainableOnDevice * g, 1, false);
            ops.addTransfer("updated weights to device", OperationClass.OFFLOAD, Placement.HOST_LINK, 1,
                    trainableOnDevice * w, 1, false);
        }
        if (offload.weights()) {
            boolean full = setup.checkpointing() == Checkpointing.FULL;
            ops.addTransfer(full ? "weights to device (forward, backward, recompute)" : "weights to device (forward, backward)",
                    OperationClass.OFFLOAD, Placement.HOST_LINK, setup.gradientAccumulation() * (full ? 3 : 2),
                    parametersOnDevice * weightBits / 8, 1, false);
        }
    }

    private static void appendMlp(Mlp mlp, TrainingSetup setup, double weightBits, boolean sparse, Precision compute,
                                  OperationList forward, OperationList backward, OperationList recompute) {
        double e = setup.activationPrecision().bytesPerElement();
        double g = setup.gradientPrecision().bytesPerElement();
        double rows = setup.tokensPerMicroBatch();
        double m = setup.gradientAccumulation();
        boolean full = setup.checkpointing() == Checkpointing.FULL;
        List<Integer> widths = mlp.widths();
        for (int i = 0; i < mlp.linearLayers(); i++) {
            double in = widths.get(i);
            double out = widths.get(i + 1);
            double weights = in * out;
            double wBytes = weights * weightBits / 8;
            String name = "linear " + (i + 1);
            Operation fwd = OperationList.gemm(name, OperationClass.FORWARD, sparse ? Kernel.SPARSE_GEMM : Kernel.GEMM,
                    compute, m, rows, in, out, e, wBytes, 0);
            forward.add(fwd);
            if (full) {
                recompute.add(fwd.as(OperationClass.RECOMPUTE, name));
            }
            if (i > 0) {
                // The first layer's input needs no gradient.
                backward.add(OperationList.gemmBytes(name + " input gradient", OperationClass.BACKWARD, compute, m,
                        2 * rows * in * out, rows * out * e + wBytes, rows * in * e,
                        OperationList.inputGradient(rows, in, out)));
            }
            backward.add(OperationList.gemmBytes(name + " weight gradient", OperationClass.BACKWARD, compute, m,
                    2 * rows * in * out, rows * in * e + rows * out * e + weights * g, weights * g,
                    OperationList.weightGradient(rows, in, out)));
            double elements = rows * out;
            boolean last = i == mlp.linearLayers() - 1;
            String ew = last ? "loss" : (mlp.biases() ? "bias and " : "") + mlp.activation().name().toLowerCase(Locale.ROOT);
            Operation act = OperationList.elementwise(name + " " + ew, OperationClass.FORWARD, AccessPattern.COPY, m,
                    (last ? 5 : mlp.activation().flopsPerElement() + 1) * elements, elements * e, elements * e);
            forward.add(act);
            if (full) {
                recompute.add(act.as(OperationClass.RECOMPUTE, act.name()));
            }
            backward.add(OperationList.elementwise(name + " " + ew + " backward", OperationClass.BACKWARD,
                    AccessPattern.COPY, m, 2 * act.flops(), 2 * elements * e, elements * e));
        }
    }

    /** Rejects layouts the workload cannot be split into, with the rule and the numbers. */
    public static void checkLayout(Workload workload, Parallelism par) {
        if (workload instanceof Mlp && (par.tensorParallel() > 1 || par.pipelineParallel() > 1)) {
            throw new BadInputException("tensor and pipeline parallelism need a transformer workload: tensorParallel="
                    + par.tensorParallel() + ", pipelineParallel=" + par.pipelineParallel());
        }
        if (!(workload instanceof Transformer tf) || par.tensorParallel() == 1 && par.pipelineParallel() == 1
                && par.expertParallel() == 1) {
            return; // one device holds the whole model: nothing to divide
        }
        int t = par.tensorParallel();
        if (tf.attentionHeads() % t != 0) {
            throw new BadInputException("tensorParallel must divide attentionHeads (" + tf.attentionHeads()
                    + " in " + tf.name() + "): tensorParallel=" + t);
        }
        if (tf.keyValueHeads() % t != 0 && t % tf.keyValueHeads() != 0) {
            throw new BadInputException("tensorParallel must divide keyValueHeads (" + tf.keyValueHeads()
                    + ") or be a multiple of it: tensorParallel=" + t);
        }
        if (tf.intermediateSize() % t != 0) {
            throw new BadInputException("tensorParallel must divide intermediateSize (" + tf.intermediateSize()
                    + "): tensorParallel=" + t);
        }
        if (par.pipelineParallel() * par.virtualStages() > tf.layers() + 2) {
            throw new BadInputException("pipeline stages x virtual stages must be at most the layers + 2 (" + tf.layers()
                    + " in " + tf.name() + "; each chunk holds a layer, the embedding or the loss, as Megatron's "
                    + "account_for_embedding_in_pipeline_split and account_for_loss_in_pipeline_split place them): "
                    + "pipelineParallel=" + par.pipelineParallel() + ", virtualStages=" + par.virtualStages());
        }
        if (par.expertParallel() > 1 && !tf.experts().sparse()) {
            throw new BadInputException("expert parallelism needs a mixture of experts (" + tf.name() + " is dense): "
                    + "expertParallel=" + par.expertParallel());
        }
        if (par.expertParallel() > 1 && tf.experts().experts() % par.expertParallel() != 0) {
            throw new BadInputException("expertParallel must divide the experts (" + tf.experts().experts() + " in "
                    + tf.name() + "): expertParallel=" + par.expertParallel());
        }
    }
}
