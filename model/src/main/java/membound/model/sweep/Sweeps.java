package membound.model.sweep;

import java.util.ArrayList;
import java.util.List;

import membound.model.Estimator;
import membound.model.Prediction;
import membound.model.StepResult;
import membound.model.machine.Basis;
import membound.model.machine.Machine;
import membound.model.memory.MemoryFootprint;
import membound.model.training.TrainingSetup;
import membound.model.workload.Workload;
import membound.vocabulary.AccessPattern;
import membound.vocabulary.BadInputException;

/**
 * The sweeps behind the one-page answer (membound answer): one workload and setup moved along one
 * axis at a time — model size, memory bandwidth, precision, tenants, mitigations — on the profile's
 * machine and the machines it is compared with. Every point is an ordinary prediction
 * ({@link Estimator#predict}, or {@link Estimator#bandwidthSweep} for the map), so each carries the
 * ceilings and sources that prediction names.
 */
public final class Sweeps {

    /**
     * An operation class whose memory traffic outlasts its FLOPs more than half the step: the step is
     * memory-bound. The share is {@link StepResult#memoryBoundShare()}.
     */
    public static final double MEMORY_BOUND_SHARE = 0.5;

    private Sweeps() {
    }

    /** Which roof a step sits under: more than {@link #MEMORY_BOUND_SHARE} of it memory-bound, or not. */
    public enum Regime {
        MEMORY_BOUND("memory-bound"),
        COMPUTE_BOUND("compute-bound");

        private final String label;

        Regime(String label) {
            this.label = label;
        }

        public String label() {
            return label;
        }

        public static Regime of(StepResult step) {
            return step.memoryBoundShare() > MEMORY_BOUND_SHARE ? MEMORY_BOUND : COMPUTE_BOUND;
        }
    }

    /** One workload on one machine: the prediction, or why there is none. */
    public record Point(String workload, double parameters, String machineId, String machineName, Prediction prediction,
                        String error) {

        public boolean predicted() {
            return prediction != null;
        }

        /** A short name for tables and legends: a catalog machine's id (dgx-spark, h100), the profile's own name. */
        public String machineLabel() {
            return machineId.startsWith("profile:") ? machineName : machineId;
        }

        public StepResult measured() {
            return prediction.measured();
        }

        public MemoryFootprint memory() {
            return prediction.memory();
        }

        public Regime regime() {
            return Regime.of(prediction.measured());
        }

        /** What the fit advisor found that fits instead (flags of membound predict), or null if it fits or nothing does. */
        public String fitsInstead() {
            if (prediction.memory().fits() || prediction.memory().advice().isEmpty()) {
                return null;
            }
            return prediction.memory().advice().get(0).flags();
        }
    }

    private static Point point(Workload workload, TrainingSetup setup, Machine machine) {
        try {
            return new Point(workload.name(), workload.parameters().total(), machine.id(), machine.name(),
                    Estimator.predict(workload, setup, machine), null);
        } catch (BadInputException e) {
            return new Point(workload.name(), workload.parameters().total(), machine.id(), machine.name(), null,
                    e.getMessage());
        }
    }

    /** Every model on every machine with one setup: time, tokens/s, memory-bound share, fit. Models in the order given. */
    public static List<Point> modelSize(List<? extends Workload> models, TrainingSetup setup, List<Machine> machines) {
        List<Point> points = new ArrayList<>(models.size() * machines.size());
        for (Workload model : models) {
            for (Machine machine : machines) {
                points.add(point(model, setup, machine));
            }
        }
        return points;
    }

    /**
     * Step time over main-memory bandwidth and model size on one machine: its measured ceilings with every
     * memory bandwidth scaled, from {@code low} to {@code high} times its measured main-memory read bandwidth
     * on a log scale.
     *
     * @param bandwidths main-memory read bandwidth at each column, bytes/s
     * @param stepSeconds [model][column] step seconds on the measured basis
     * @param floorSeconds per model, the step at {@link #UNLIMITED} times the measured bandwidth: what compute
     *        alone costs
     * @param measuredBandwidth the machine's measured main-memory read bandwidth (the scale-1 column)
     * @param datasheetBandwidth its datasheet main-memory bandwidth, NaN if unknown
     * @param measuredSeconds per model, the step at the measured bandwidth (scale 1)
     * @param datasheetSeconds per model, the step with the datasheet's bandwidth and the measured compute (NaN if
     *        the datasheet bandwidth is unknown): against the measured step, what the missing bandwidth costs
     */
    public record BandwidthMap(String machineId, String machineName, List<String> models, double[] parameters,
                               double[] bandwidths, double[][] stepSeconds, double[] floorSeconds,
                               double measuredBandwidth, String measuredSource, double datasheetBandwidth,
                               double[] measuredSeconds, double[] datasheetSeconds) {

        /** The column nearest the measured bandwidth. */
        public int measuredColumn() {
            int best = 0;
            for (int c = 1; c < bandwidths.length; c++) {
                if (Math.abs(Math.log(bandwidths[c] / measuredBandwidth))
                        < Math.abs(Math.log(bandwidths[best] / measuredBandwidth))) {
                    best = c;
                }
            }
            return best;
        }

        /** The step at the measured bandwidth exactly (scale 1), per model. */
        public double measuredSeconds(int model) {
            return measuredSeconds[model];
        }

        /** Step over its compute-only floor: 1 where bandwidth does not matter, 2 where it doubles the step. */
        public double slowdown(int model, int column) {
            return stepSeconds[model][column] / floorSeconds[model];
        }
    }

    /** The bandwidth that stands for "unlimited" in a {@link BandwidthMap}: a thousand times the measured. */
    public static final double UNLIMITED = 1000;

    public static BandwidthMap bandwidthMap(List<? extends Workload> models, TrainingSetup setup, Machine machine,
                                            double low, double high, int columns) {
        if (!(low > 0) || !(high > low) || Double.isInfinite(high) || columns < 2) {
            throw new BadInputException("a bandwidth map needs 0 < low < high and at least 2 columns: low=" + low
                    + ", high=" + high + ", columns=" + columns);
        }
        var read = machine.device().mainMemory().ceiling(AccessPattern.READ);
        double measured = read.value(Basis.MEASURED);
        double datasheet = read.hasDatasheet() ? read.value(Basis.DATASHEET) : Double.NaN;
        // The columns, then unlimited, the measured bandwidth itself, and the datasheet's.
        double[] scales = new double[columns + 3];
        for (int c = 0; c < columns; c++) {
            scales[c] = low * Math.pow(high / low, (double) c / (columns - 1));
        }
        scales[columns] = UNLIMITED;
        scales[columns + 1] = 1;
        scales[columns + 2] = Double.isNaN(datasheet) ? 1 : datasheet / measured;
        double[] bandwidths = new double[columns];
        for (int c = 0; c < columns; c++) {
            bandwidths[c] = measured * scales[c];
        }
        List<String> names = new ArrayList<>();
        List<double[]> rows = new ArrayList<>();
        List<double[]> extra = new ArrayList<>();
        List<Double> parameters = new ArrayList<>();
        for (Workload model : models) {
            double[] all;
            try {
                all = Estimator.bandwidthSweep(model, setup, machine, scales);
            } catch (BadInputException e) {
                continue; // a model this setup cannot lay out on the machine has no row
            }
            names.add(model.name());
            parameters.add((double) model.parameters().total());
            rows.add(java.util.Arrays.copyOf(all, columns));
            extra.add(new double[] {all[columns], all[columns + 1], Double.isNaN(datasheet) ? Double.NaN : all[columns + 2]});
        }
        int n = names.size();
        double[] floors = new double[n];
        double[] atMeasured = new double[n];
        double[] atDatasheet = new double[n];
        for (int m = 0; m < n; m++) {
            floors[m] = extra.get(m)[0];
            atMeasured[m] = extra.get(m)[1];
            atDatasheet[m] = extra.get(m)[2];
        }
        return new BandwidthMap(machine.id(), machine.name(), names,
                parameters.stream().mapToDouble(Double::doubleValue).toArray(), bandwidths, rows.toArray(double[][]::new),
                floors, measured, read.source(Basis.MEASURED), datasheet, atMeasured, atDatasheet);
    }

    /** A setup the answer compares with the one as given, and the membound predict command that predicts it. */
    public record Variant(String label, String command, TrainingSetup setup) {
    }

    /** One variant of the setup on one machine. */
    public record VariantPoint(Variant variant, Point point) {
    }

    /** Every variant on every machine. */
    public static List<VariantPoint> variants(Workload workload, List<Variant> variants, List<Machine> machines) {
        List<VariantPoint> points = new ArrayList<>();
        for (Variant v : variants) {
            for (Machine machine : machines) {
                points.add(new VariantPoint(v, point(workload, v.setup(), machine)));
            }
        }
        return points;
    }

    /** One machine shared by 1..K processes each training the workload. */
    public record SharingPoint(int tenants, Point point, boolean measuredCurve) {

        /** Tokens per second of each process. */
        public double perUserTokensPerSecond() {
            return point.measured().tokensPerSecond();
        }

        /** Tokens per second of all processes together. */
        public double totalTokensPerSecond() {
            return tenants * point.measured().tokensPerSecond();
        }
    }

    public static List<SharingPoint> sharing(Workload workload, TrainingSetup setup, List<Machine> machines,
                                             int maxTenants) {
        if (maxTenants < 1 || maxTenants > 64) {
            throw new BadInputException("tenants must be between 1 and 64: tenants=" + maxTenants);
        }
        List<SharingPoint> points = new ArrayList<>();
        for (Machine machine : machines) {
            for (int k = 1; k <= maxTenants; k++) {
                points.add(new SharingPoint(k, point(workload, setup.toBuilder().tenants(k).build(), machine),
                        machine.tenants() != null));
            }
        }
        return points;
    }
}
