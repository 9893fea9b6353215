package membound.model;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

import membound.vocabulary.BadInputException;
import membound.vocabulary.units.Units;
import membound.model.machine.Basis;
import membound.model.machine.Ceiling;
import membound.model.machine.Link;
import membound.model.machine.Machine;
import membound.model.memory.FitAdvisor;
import membound.model.memory.MemoryFootprint;
import membound.model.memory.MemoryModel;
import membound.model.roofline.Ceilings;
import membound.model.roofline.Kernel;
import membound.model.roofline.Operation;
import membound.model.roofline.OperationClass;
import membound.model.roofline.Roofline;
import membound.model.trainer.Trainer;
import membound.model.training.MoeDispatcher;
import membound.model.training.Overheads;
import membound.model.training.Parallelism;
import membound.model.training.StepPlan;
import membound.model.training.StepPlanner;
import membound.model.training.TrainingSetup;
import membound.model.workload.Transformer;
import membound.model.workload.Workload;

/**
 * The model's entry point as a library.
 *
 * <pre>{@code
 * Workload model = Presets.get("llama-3.1-8b");
 * TrainingSetup setup = TrainingSetup.builder().tokens(2_000_000_000L).gradientAccumulation(8).build();
 * Machine spark = Machines.datasheet("dgx-spark");
 * Prediction p = Estimator.predict(model, setup, spark);
 * double seconds = p.measured().totalSeconds();
 * }</pre>
 *
 * Every call is a pure function of its arguments: no state, no I/O, safe from any thread, and
 * fast enough for sweeps (see docs/model.md, "Speed").
 */
public final class Estimator {

    private static final double ELASTICITY_STEP = 1.01;
    private static final OperationClass[] CLASSES = OperationClass.values();

    private Estimator() {
    }

    /**
     * Everything: both bases, sensitivity, memory with advice, operations, ceilings and notes, with the typical
     * PyTorch trainer's terms ({@link Trainer#defaultTrainer()}) giving the expected step.
     */
    public static Prediction predict(Workload workload, TrainingSetup setup, Machine machine) {
        return predict(workload, setup, machine, Trainer.defaultTrainer(), false);
    }

    /**
     * Everything, with {@code trainer}'s terms giving the expected step ({@link Prediction#expected()}) beside the
     * roofline bound; a layout the trainer cannot run is refused in one line ({@link Trainer#check}).
     *
     * @param named whether the user named the trainer (the output says which applied either way)
     */
    public static Prediction predict(Workload workload, TrainingSetup setup, Machine machine, Trainer trainer,
                                     boolean named) {
        trainer.check(setup.parallelism(), setup.moeDispatcher());
        StepPlan plan = StepPlanner.plan(workload, setup, machine);
        Ceilings.Links links = links(machine, setup.parallelism());
        Link link = links.parallel();
        int tenants = setup.tenants();
        Ceilings measuredCeilings = Ceilings.withLinks(machine, Basis.MEASURED, tenants, links, setup.attentionKernel());
        Ceilings datasheetCeilings = Ceilings.withLinks(machine, Basis.DATASHEET, tenants, links, setup.attentionKernel());
        Roofline.Evaluation measuredEval = Roofline.evaluate(plan.rows(), measuredCeilings);
        StepResult measured = result(plan, measuredEval, measuredCeilings);
        Optional<String> datasheetUnknown = machine.datasheetUnknown(plan.computePrecision());
        StepResult datasheet = datasheetUnknown.isPresent() ? null
                : result(plan, Roofline.sums(plan.rows(), datasheetCeilings), datasheetCeilings);

        Sensitivity sensitivity = new Sensitivity(measured.stepSeconds(),
                stepSeconds(plan, measuredCeilings.withBandwidthScale(0.5)),
                stepSeconds(plan, measuredCeilings.withBandwidthScale(2.0)),
                elasticity(plan, machine, measuredCeilings, tenants, links));

        MemoryFootprint memory = MemoryModel.training(plan, machine);
        if (!memory.fits()) {
            memory = memory.withAdvice(FitAdvisor.advise(workload, setup, machine, memory));
        }

        List<String> notes = new ArrayList<>(plan.notes());
        notes.addAll(machine.notes());
        if (measuredCeilings.kernelLaunchSeconds() > 0) {
            double[] launches = launchOverhead(plan, measuredEval, measuredCeilings.kernelLaunchSeconds());
            notes.add(String.format(Locale.ROOT, "kernel launches: %,.0f per step at least %.2f us each (%s): "
                    + "operations shorter than that add %.3f s to the step", launches[1],
                    measuredCeilings.kernelLaunchSeconds() * 1e6,
                    machine.device().kernelLaunchSeconds().source(Basis.MEASURED), launches[0]));
        }
        datasheetUnknown.ifPresent(notes::add);
        Overheads overheads = trainer.overheads();
        if (workload instanceof Transformer tf && tf.expertLayers() > 0) {
            boolean alltoall = setup.moeDispatcher() == MoeDispatcher.ALLTOALL;
            notes.add(String.format(Locale.ROOT, "mixture of experts: %s dispatcher, the trainer's expert-efficiency "
                    + "%.3f on the routed experts' GEMMs%s%s", alltoall ? "Megatron-Core's all-to-all" : "a fused",
                    overheads.expertEfficiency(), alltoall ? String.format(Locale.ROOT, " and its alltoall-dispatch "
                    + "%.0f us per forward dispatch (the token counts read back to the host; the GPU then waits on the "
                    + "host's launches)", overheads.alltoallDispatchSeconds() * 1e6) : "",
                    setup.parallelism().expertParallel() > 1 ? (setup.overlapExpertCommunication()
                            ? "; the expert-parallel all-to-all hidden behind compute (--overlap-expert-communication)"
                            : "; the expert-parallel all-to-all not overlapped") : ""));
        }
        int zero = setup.parallelism().zeroStage();
        if ((zero == 1 || zero == 2) && setup.parallelism().gradientGroup() > 1 && setup.overlapCommunication()
                && !setup.overlapParameterGather()) {
            notes.add("the distributed optimizer's all-gather of the updated parameters is not overlapped "
                    + "(--no-overlap-param-gather): it adds to the step");
        }
        if (tenants > 1 && machine.tenants() == null) {
            notes.add(String.format(Locale.ROOT, "%d tenants share %s: no measured tenants curve, so each gets an even "
                    + "1/%d of the bandwidth and of the compute", tenants, machine.name(), tenants));
        } else if (tenants > 1) {
            notes.add(String.format(Locale.ROOT, "%d tenants share %s: each gets %.3f of the single-tenant bandwidth "
                    + "(measured tenants curve: %s) and 1/%d of the compute", tenants, machine.name(),
                    Ceilings.bandwidthShare(machine, tenants), machine.tenants().source(), tenants));
        }
        double passScale = passScale(setup);
        double[] parts = Overheads.parts(plan.operations(), Roofline.evaluate(plan.operations(), measuredCeilings),
                passScale, setup.moeDispatcher());
        double[] byTerm = overheads.addedByTerm(parts);
        double added = 0;
        for (double seconds : byTerm) {
            added += seconds;
        }
        double expectedStep = measured.stepSeconds() + added;
        double datasheetStep = Double.NaN;
        if (datasheet != null) {
            datasheetStep = datasheet.stepSeconds() + overheads.addedSeconds(plan.operations(),
                    Roofline.evaluate(plan.operations(), datasheetCeilings), passScale, setup.moeDispatcher());
        }
        TrainerEstimate expected = new TrainerEstimate(trainer.id(), trainer.name(), named, trainer.describeTerms(),
                expectedStep, measured.tokensPerStep() / expectedStep, measured.steps() * expectedStep,
                measured.mfu() * measured.stepSeconds() / expectedStep, added, datasheetStep,
                datasheet == null ? Double.NaN : datasheet.tokensPerStep() / datasheetStep,
                datasheet == null ? Double.NaN : datasheet.steps() * datasheetStep,
                datasheet == null ? Double.NaN : datasheet.mfu() * datasheet.stepSeconds() / datasheetStep,
                addedByTerm(parts, byTerm, overheads));
        return new Prediction(workload.name(), workload.source(), workload.parameters().total(),
                workload.parameters().active(), plan.trainableParameters(), setup, machine.id(), machine.name(),
                machine.source(), link == null ? null : link.name(), measured, datasheet,
                datasheet == null ? Double.NaN : (datasheet.stepSeconds() - measured.stepSeconds()) / measured.stepSeconds(),
                sensitivity, memory, rows(plan.operations(), measuredEval),
                Ceilings.describe(machine, Basis.MEASURED, plan.computePrecision(), link, tenants, setup.attentionKernel()),
                datasheet == null ? List.of() : Ceilings.describe(machine, Basis.DATASHEET, plan.computePrecision(), link,
                        tenants, setup.attentionKernel()), notes,
                expected);
    }

    /** What scales each term, as the output says it: kernel seconds for an efficiency, a count for a cost per run. */
    private static final String[] SCALED = {"compute-bound GEMMs (16 bits and wider)",
        "compute-bound GEMMs (8 bits and narrower)", "compute-bound fused attention",
        "memory-bound elementwise kernels of the passes",
        "the routed experts' GEMMs", "all-to-all dispatches", "operation runs"};

    /** Each term's share of the added seconds, largest |share| first, the terms that add nothing left out. */
    static List<TrainerEstimate.Added> addedByTerm(double[] parts, double[] byTerm, Overheads overheads) {
        double[] values = overheads.values();
        List<TrainerEstimate.Added> added = new ArrayList<>();
        for (int i = 0; i < byTerm.length; i++) {
            if (byTerm[i] == 0) {
                continue;
            }
            added.add(new TrainerEstimate.Added(Overheads.TERMS.get(i), byTerm[i], i >= Overheads.FIRST_PER_RUN_TERM
                    ? String.format(Locale.ROOT, "%,.0f %s x %.2f us", parts[i], SCALED[i], values[i] * 1e6)
                    : String.format(Locale.ROOT, "%s of %s at %.4f", parts[i] >= 1 ? String.format(Locale.ROOT,
                            "%.3f s", parts[i]) : String.format(Locale.ROOT, "%.3f ms", parts[i] * 1e3), SCALED[i],
                            values[i])));
        }
        added.sort(java.util.Comparator.comparingDouble((TrainerEstimate.Added a) -> -Math.abs(a.seconds())));
        return added;
    }

    /**
     * What the forward, backward and recompute time of the pacing stage is multiplied by in a step: 1 plus the
     * pipeline's idle share, (p - 1) / (m v) (1F1B, interleaved over v virtual stages: Narayanan et al. 2021). A
     * trainer's terms that slow those passes slow the bubble alike ({@link Overheads#addedSeconds}).
     */
    public static double passScale(TrainingSetup setup) {
        return 1 + setup.parallelism().bubbleFraction(setup.gradientAccumulation());
    }

    /**
     * Only the step on one basis: the fast path for sweeps. The step is planned into this thread's
     * buffers (nothing is allocated per operation), and the machine's ceilings, a pure function of the
     * machine, basis, tenants and link, are kept for the next call with the same four. The plan is kept too:
     * the same workload and setup on another machine that the planner cannot tell apart from the last
     * ({@link StepPlanner#machineTraits}), or on another basis, are evaluated without planning again, as a sweep
     * over machines asks for them.
     */
    public static StepResult step(Workload workload, TrainingSetup setup, Machine machine, Basis basis) {
        Sweep sweep = SWEEP.get();
        StepPlan plan = sweep.plan(workload, setup, machine);
        Ceilings ceilings = sweep.ceilings(machine, basis, setup.tenants(), links(machine, setup.parallelism()),
                setup.attentionKernel());
        return result(plan, Roofline.sums(plan.rows(), ceilings), ceilings);
    }

    /**
     * The step on the measured basis with every memory bandwidth (device and host, not links) multiplied by
     * each of {@code scales}: the step is planned once and evaluated once per scale, as a bandwidth sweep needs.
     *
     * @return step seconds per scale, in order
     */
    public static double[] bandwidthSweep(Workload workload, TrainingSetup setup, Machine machine, double[] scales) {
        Sweep sweep = SWEEP.get();
        StepPlan plan = sweep.plan(workload, setup, machine);
        Ceilings base = sweep.ceilings(machine, Basis.MEASURED, setup.tenants(), links(machine, setup.parallelism()),
                setup.attentionKernel());
        double[] seconds = new double[scales.length];
        for (int i = 0; i < scales.length; i++) {
            if (!(scales[i] > 0) || Double.isInfinite(scales[i])) {
                throw new BadInputException("a bandwidth scale must be positive and finite: scale=" + scales[i]);
            }
            seconds[i] = stepSeconds(plan, base.withBandwidthScale(scales[i]));
        }
        return seconds;
    }

    private static final ThreadLocal<Sweep> SWEEP = ThreadLocal.withInitial(Sweep::new);

    /**
     * One thread's planning buffers, the last plan made in them with what it was made of, and the last few
     * machines' ceilings (all compared by identity: workloads, setups and machines are immutable).
     */
    private static final class Sweep {
        private static final int KEPT = 8;
        private final StepPlanner.Buffers buffers = new StepPlanner.Buffers(true);
        private Workload plannedWorkload;
        private TrainingSetup plannedSetup;
        private int plannedTraits;
        private StepPlan planned;

        StepPlan plan(Workload workload, TrainingSetup setup, Machine machine) {
            int traits = StepPlanner.machineTraits(setup, machine);
            if (planned != null && workload == plannedWorkload && setup == plannedSetup && traits == plannedTraits) {
                return planned;
            }
            // Forgotten first: a plan that fails leaves no plan of other inputs behind in the buffers it overwrote.
            planned = null;
            StepPlan plan = StepPlanner.plan(workload, setup, machine, buffers);
            plannedWorkload = workload;
            plannedSetup = setup;
            plannedTraits = traits;
            planned = plan;
            return plan;
        }

        private final Machine[] machines = new Machine[KEPT];
        private final Basis[] bases = new Basis[KEPT];
        private final int[] tenants = new int[KEPT];
        private final Ceilings.Links[] links = new Ceilings.Links[KEPT];
        private final membound.model.training.AttentionKernel[] kernels = new membound.model.training.AttentionKernel[KEPT];
        private final Ceilings[] ceilings = new Ceilings[KEPT];
        private int next;

        Ceilings ceilings(Machine machine, Basis basis, int tenantCount, Ceilings.Links link,
                          membound.model.training.AttentionKernel kernel) {
            for (int i = 0; i < KEPT; i++) {
                if (machines[i] == machine && bases[i] == basis && tenants[i] == tenantCount && kernels[i] == kernel
                        && (links[i] == link || links[i] != null && links[i].equals(link))) {
                    return ceilings[i];
                }
            }
            Ceilings made = Ceilings.withLinks(machine, basis, tenantCount, link, kernel);
            int i = next;
            next = (next + 1) % KEPT;
            machines[i] = machine;
            bases[i] = basis;
            tenants[i] = tenantCount;
            links[i] = link;
            kernels[i] = kernel;
            ceilings[i] = made;
            return made;
        }
    }

    /**
     * Any list of operations timed on one basis (for workloads assembled from {@link
     * membound.model.roofline.OperationList}'s factories or {@link StepPlanner#optimizerStep}): the
     * roofline of each, in order.
     */
    public static List<membound.model.roofline.OperationTime> time(List<Operation> operations, Machine machine,
                                                                  Basis basis, int tenants) {
        Ceilings ceilings = Ceilings.of(machine, basis, tenants, machine.link(Link.Kind.PEER) != null
                ? machine.link(Link.Kind.PEER) : machine.link(Link.Kind.NETWORK));
        List<membound.model.roofline.OperationTime> times = new ArrayList<>(operations.size());
        for (Operation op : operations) {
            times.add(Roofline.time(op, ceilings));
        }
        return times;
    }

    /** The operations of one step, for inspection and tests. */
    public static StepPlan plan(Workload workload, TrainingSetup setup, Machine machine) {
        return StepPlanner.plan(workload, setup, machine);
    }

    /**
     * Every link a layout's collectives run on: the data-parallel group's ({@link #parallelLink}), the peer link inside
     * a node (tensor parallelism, groups that fit a node) and one GPU's network link to other nodes (the machine's own,
     * else the NIC per GPU of the nodes the catalog GPU is sold in).
     */
    public static Ceilings.Links links(Machine machine, Parallelism parallelism) {
        Link parallel = parallelLink(machine, parallelism);
        if (parallel == null) {
            return Ceilings.Links.NONE;
        }
        Link peer = machine.link(Link.Kind.PEER);
        Link network = machine.link(Link.Kind.NETWORK);
        if (network == null && parallelism.nodes() > 1) {
            network = nodeNetwork(machine);
        }
        return new Ceilings.Links(parallel, peer != null ? peer : network != null ? network : parallel,
                network != null ? network : parallel);
    }

    /** One GPU's NIC in the nodes a catalog GPU is sold in, as a link; null where the model knows none. */
    private static Link nodeNetwork(Machine machine) {
        double[] perGpu = NODE_NETWORK.get(machine.id());
        if (perGpu == null) {
            return null;
        }
        Ceiling net = Ceiling.datasheet(perGpu[0], NODE_NETWORK_SOURCE.get(machine.id()));
        return new Link("network", "network (" + Units.formatBandwidth(net.datasheet()) + " per GPU)", Link.Kind.NETWORK,
                net, 0, "no network latency known");
    }

    /**
     * The link parallel devices use: the one the layout names, else the machine's peer link (devices
     * in one box), else its network link (machines linked together, as two DGX Sparks are).
     */
    public static Link parallelLink(Machine machine, Parallelism parallelism) {
        if (parallelism.devices() == 1) {
            return null;
        }
        if (parallelism.nodes() > 1) {
            return hierarchicalLink(machine, parallelism);
        }
        if (parallelism.link() != null) {
            Link named = machine.link(parallelism.link());
            if (named == null) {
                throw new BadInputException("link must be one of the machine's links (" + linkIds(machine) + "): link="
                        + parallelism.link());
            }
            return named;
        }
        Link peer = machine.link(Link.Kind.PEER);
        Link link = peer != null ? peer : machine.link(Link.Kind.NETWORK);
        if (link == null) {
            throw new BadInputException("several devices need a peer or network link, and " + machine.id()
                    + " has none: devices=" + parallelism.devices());
        }
        return link;
    }

    /**
     * Network bandwidth per GPU, per direction, of the nodes a catalog GPU is sold in, where the machine itself has
     * no network link: one ConnectX NIC per GPU, as NVIDIA's DGX systems have them.
     */
    private static final java.util.Map<String, double[]> NODE_NETWORK = java.util.Map.of(
            "h100-sxm", new double[] {50e9}, "h200-sxm", new double[] {50e9}, "b200", new double[] {50e9},
            "gb200", new double[] {50e9}, "a100-sxm-80gb", new double[] {25e9});

    private static final java.util.Map<String, String> NODE_NETWORK_SOURCE = java.util.Map.of(
            "h100-sxm", "NVIDIA DGX H100 user guide: eight single-port ConnectX-7 400 Gb/s InfiniBand/Ethernet, one per "
                    + "GPU (50 GB/s each way)",
            "h200-sxm", "NVIDIA DGX H200 user guide: eight single-port ConnectX-7 400 Gb/s, one per GPU (50 GB/s each way)",
            "b200", "NVIDIA DGX B200 user guide: eight single-port ConnectX-7 400 Gb/s, one per GPU (50 GB/s each way)",
            "gb200", "NVIDIA's GB200 systems in MLPerf Training 5.0 (NVIDIA/systems/*.json): four ConnectX-7 400 Gb/s "
                    + "per four-GPU compute tray, one per GPU (50 GB/s each way), between NVL72 racks",
            "a100-sxm-80gb", "NVIDIA DGX A100 user guide: eight single-port ConnectX-6 200 Gb/s HDR, one per GPU (25 GB/s "
                    + "each way); llm-foundry's A100 table states 1600 Gbps node-node (RoCE), the same per GPU");

    /**
     * The link the collectives of devices spread over several nodes see, as one ring-equivalent bandwidth over the
     * data-parallel group's {@code N} nodes of {@code g} of its GPUs each (a group inside one node: the peer link itself). NCCL's
     * hierarchical all-reduce reduce-scatters inside each node over NVLink ({@code (g-1)/g} of the buffer), all-reduces
     * each GPU's shard across the {@code N} nodes over its own NIC ({@code 2(N-1)/N} of {@code S/g}, the g rails in
     * parallel), and all-gathers inside the node again. Its time, {@code 2(g-1)/g S/B_nvlink + 2(N-1)/N S/(g B_net)},
     * set equal to a flat ring's {@code 2(n-1)/n S / B} over all {@code n = N g} ranks gives {@code B}: the bus
     * bandwidth nccl-tests would print. The ZeRO gathers and reduce-scatters have the same ratio of bytes (half of
     * each phase), so one figure serves every data-parallel collective. Tensor-parallel traffic, inside a node,
     * is charged at it too (the model has one parallel link per setup): pessimistic where tensor parallel spans
     * several GPUs of a multi-node setup, and said in the link's name.
     */
    static Link hierarchicalLink(Machine machine, Parallelism parallelism) {
        // The ring is the data-parallel group with its context-parallel ranks (gradients are reduced over both). Ranks
        // are laid out tensor-parallel fastest, then context and data parallel, then pipeline (Megatron's order; FSDP
        // has only data parallel): a node holds gpus-per-node / tp ranks of a group.
        int dp = parallelism.gradientGroup();
        int perNode = Math.max(1, Math.min(dp, parallelism.devicesPerNode() / parallelism.tensorParallel()));
        int nodes = dp / perNode;
        Link peerInside = machine.link(Link.Kind.PEER);
        if (nodes <= 1 && peerInside != null) {
            // The whole group sits inside one node: NVLink, the pipeline's point-to-point sends cross the network.
            return peerInside;
        }
        if (nodes <= 1) {
            nodes = parallelism.nodes();
            perNode = parallelism.devicesPerNode();
        }
        Link network = machine.link(Link.Kind.NETWORK);
        Ceiling net;
        String netName;
        if (network != null) {
            net = network.bandwidth();
            netName = network.name();
        } else if (NODE_NETWORK.containsKey(machine.id())) {
            net = Ceiling.datasheet(NODE_NETWORK.get(machine.id())[0], NODE_NETWORK_SOURCE.get(machine.id()));
            netName = "network (" + Units.formatBandwidth(net.datasheet()) + " per GPU)";
        } else {
            throw new BadInputException("nodes must be 1 on " + machine.id() + ": it has no network link and the model "
                    + "knows no node fabric for it: nodes=" + nodes);
        }
        Link peer = perNode > 1 ? machine.link(Link.Kind.PEER) : null;
        if (perNode > 1 && peer == null) {
            throw new BadInputException("gpus-per-node must be 1 on " + machine.id() + " (it has no peer link between "
                    + "devices in a node): gpus-per-node=" + perNode);
        }
        int n = nodes * perNode;
        double ring = 2.0 * (n - 1) / n;
        double[] values = new double[2];
        for (Basis basis : new Basis[] {Basis.MEASURED, Basis.DATASHEET}) {
            double inside = perNode > 1 ? 2.0 * (perNode - 1) / perNode / peer.bandwidth().value(basis) : 0;
            double across = 2.0 * (nodes - 1) / nodes / perNode / net.value(basis);
            values[basis.ordinal()] = ring / (inside + across);
        }
        String how = String.format(Locale.ROOT, "NCCL hierarchical ring over the data-parallel group: %d nodes x %d "
                + "GPUs of it, %s inside, %s across (bus bandwidth 2(n-1)/n S / T)", nodes, perNode,
                perNode > 1 ? peer.name() : "nothing", netName);
        Ceiling bandwidth = new Ceiling(values[Basis.DATASHEET.ordinal()], how + "; datasheet: "
                + (perNode > 1 ? peer.bandwidth().source(Basis.DATASHEET) + "; " : "") + net.source(Basis.DATASHEET),
                values[Basis.MEASURED.ordinal()], how + "; measured basis: "
                + (perNode > 1 ? peer.bandwidth().source(Basis.MEASURED) + "; " : "") + net.source(Basis.MEASURED));
        double latency = Math.max(network == null ? 0 : network.latencySeconds(), peer == null ? 0 : peer.latencySeconds());
        return new Link("hierarchical", "hierarchical: " + (perNode > 1 ? peer.id() + " inside " + perNode + "-GPU nodes, "
                : "") + netName + " across " + nodes + " nodes" + (parallelism.tensorParallel() > 1
                ? " (tensor-parallel traffic charged at it too)" : ""), Link.Kind.NETWORK, bandwidth, latency,
                network == null ? "no network latency known" : network.latencySource());
    }

    private static String linkIds(Machine machine) {
        List<String> ids = new ArrayList<>();
        for (Link link : machine.links()) {
            ids.add(link.id());
        }
        return ids.isEmpty() ? "none" : String.join(", ", ids);
    }

    static double stepSeconds(StepPlan plan, Ceilings ceilings) {
        return assemble(plan, Roofline.sums(plan.rows(), ceilings))[CLASSES.length];
    }

    private static double elasticity(StepPlan plan, Machine machine, Ceilings base, int tenants, Ceilings.Links link) {
        double up = stepSeconds(plan, base.withBandwidthScale(ELASTICITY_STEP));
        double down = stepSeconds(plan, base.withBandwidthScale(1 / ELASTICITY_STEP));
        return (Math.log(up) - Math.log(down)) / (2 * Math.log(ELASTICITY_STEP));
    }

    /**
     * Seconds per class after the adjustments that are not per operation, and the step (last
     * element): the data-parallel gradient reduction and ZeRO-3's weight gathers hide behind the forward, backward and
     * recompute passes when asked to overlap (gradients are reduced bucket by bucket during the backward pass, FSDP
     * prefetches the next layer's weights while this one computes);
     * a pipeline idles (p - 1) / m of its forward, backward and recompute time (1F1B: Narayanan et
     * al. 2021). On a device with a measured kernel launch interval, an operation's repetitions take at least one
     * launch each ({@link #launchBoundSeconds}).
     */
    private static double[] assemble(StepPlan plan, Roofline.Evaluation eval) {
        int classes = CLASSES.length;
        double[] seconds = new double[classes + 1];
        for (OperationClass c : CLASSES) {
            seconds[c.ordinal()] = eval.seconds(c);
        }
        // Communication that may overlap (the gradient reduction, ZeRO-3's prefetched gathers) hides behind the passes.
        double hidden = Math.min(eval.overlappableSeconds(), seconds[OperationClass.FORWARD.ordinal()]
                + seconds[OperationClass.BACKWARD.ordinal()] + seconds[OperationClass.RECOMPUTE.ordinal()]);
        seconds[OperationClass.COMMUNICATION.ordinal()] -= hidden;
        double bubble = plan.setup().parallelism().bubbleFraction(plan.setup().gradientAccumulation());
        if (bubble > 0) {
            double work = seconds[OperationClass.FORWARD.ordinal()] + seconds[OperationClass.BACKWARD.ordinal()]
                    + seconds[OperationClass.RECOMPUTE.ordinal()];
            seconds[OperationClass.PIPELINE_BUBBLE.ordinal()] = work * bubble;
        }
        double step = 0;
        for (int c = 0; c < classes; c++) {
            step += seconds[c];
        }
        seconds[classes] = step;
        return seconds;
    }

    /** {@link Roofline#launchBound} of one operation; transfers and host work launch nothing. */
    public static double launchBoundSeconds(Operation op, double rooflineSeconds, double launchSeconds) {
        if (op.kernel() == Kernel.TRANSFER || op.placement() != membound.model.roofline.Placement.DEVICE) {
            return 0;
        }
        return Roofline.launchBound(op.count(), rooflineSeconds, launchSeconds);
    }

    /** Seconds of a step that its kernel launches add beyond the roofline, and the kernels launched. */
    static double[] launchOverhead(StepPlan plan, Roofline.Evaluation eval, double launchSeconds) {
        double added = 0;
        double kernels = 0;
        List<Operation> operations = plan.operations();
        for (int i = 0; i < operations.size(); i++) {
            Operation op = operations.get(i);
            double extra = launchBoundSeconds(op, eval.seconds()[i], launchSeconds);
            added += extra;
            if (op.kernel() != Kernel.TRANSFER && op.placement() == membound.model.roofline.Placement.DEVICE) {
                kernels += op.count();
            }
        }
        return new double[] {added, kernels};
    }

    private static StepResult result(StepPlan plan, Roofline.Evaluation eval, Ceilings ceilings) {
        double[] seconds = assemble(plan, eval);
        double step = seconds[CLASSES.length];
        double[] memoryBoundByClass = eval.memoryBoundSecondsByClass();
        double memoryBound = 0;
        for (int c = 0; c < CLASSES.length; c++) {
            memoryBound += Math.min(seconds[c], memoryBoundByClass[c]);
        }
        List<StepResult.ClassTime> breakdown = StepResult.breakdownOf(seconds, memoryBoundByClass, step);
        double modelFlops = eval.modelFlops();
        double hardwareFlops = eval.hardwareFlops();
        TrainingSetup setup = plan.setup();
        double peak = ceilings.peakFlopsPerSecond(plan.computePrecision());
        double tokensPerStep = setup.tokensPerStep();
        return new StepResult(ceilings.basis(), step, breakdown, memoryBound / step, tokensPerStep,
                tokensPerStep / step, setup.steps(), setup.steps() * step, modelFlops, peak,
                modelFlops / (step * peak), hardwareFlops / (step * peak));
    }

    /** Every operation with its share of the evaluated time (one row per operation; names are unique per class). */
    public static List<OperationRow> rows(List<Operation> operations, Roofline.Evaluation eval) {
        double total = 0;
        for (double s : eval.seconds()) {
            total += s;
        }
        List<OperationRow> rows = new ArrayList<>(operations.size());
        for (int i = 0; i < operations.size(); i++) {
            Operation op = operations.get(i);
            double seconds = eval.seconds()[i];
            String bound = op.kernel() == Kernel.TRANSFER ? "link" : eval.memoryBound()[i] ? "memory" : "compute";
            double intensity = op.arithmeticIntensity();
            rows.add(new OperationRow(op.name(), op.operationClass().label(), op.kernel().label(), op.placement().label(),
                    bound, op.count(), op.totalFlops(), op.totalBytes(), op.linkBytes() * op.count(), seconds,
                    total == 0 ? 0 : seconds / total, Double.isInfinite(intensity) ? null : intensity));
        }
        return rows;
    }
}
