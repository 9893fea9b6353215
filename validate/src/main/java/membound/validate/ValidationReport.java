package membound.validate;

import java.util.List;

/**
 * What a validation found: per reference workload the measured step time, the model's prediction from the
 * calibrated profile and its error, and the datasheet-based prediction beside it.
 *
 * @param profileFile the profile the predictions used
 * @param datasheetBandwidth the nominal memory bandwidth the datasheet-based predictions used, or null
 * @param datasheetSource where it came from, or why there is none
 * @param loadAverageBefore the host's one-minute load average when the run started (other work skews it)
 * @param otherCpus cpus that other processes (not this one or its JMH forks) used on average while the
 *        workloads ran, from {@code /proc/stat}; null where it could not be read. A VM's load average can
 *        stay high with its cpus idle; this figure is the one a noisy run is judged by.
 * @param drift the drift probe's rates before and after the workloads against the profile's, or null when it did
 *        not run
 */
public record ValidationReport(String hostname, String cpu, int cpus, String createdUtc, String profileFile,
        String profileCreatedUtc, Double datasheetBandwidth, String datasheetSource, List<Row> rows,
        Double loadAverageBefore, Double loadAverageAfter, Double otherCpus, String settings, String commandLine,
        DriftProbe drift, List<String> notes) {

    public ValidationReport {
        rows = List.copyOf(rows);
        notes = List.copyOf(notes);
    }

    /** A step time's distribution over JMH's samples, in seconds. */
    public record Measured(double medianSeconds, double p5Seconds, double p95Seconds, long samples) {
    }

    /** One operation of a workload: the model's time for it and, where it was timed alone, the measured one. */
    public record OperationRow(String name, String bound, double predictedSeconds, Double measuredSeconds) {
    }

    /**
     * One workload.
     *
     * @param predictedSeconds the model's step on the profile's measured ceilings
     * @param memoryBoundShare the share of the predicted step in operations whose bytes outweigh their FLOPs
     * @param datasheetSeconds the model's step with the nominal memory bandwidth, or null when unknown
     * @param probedSeconds the model's step on the profile rescaled to the drift probe's rates, or null without one
     * @param tenantMedianSeconds each tenant's own median step (workload 4), else empty
     */
    public record Row(ReferenceWorkload workload, String sizes, Measured measured, double predictedSeconds,
            double memoryBoundShare, Double datasheetSeconds, Double probedSeconds, List<Double> tenantMedianSeconds,
            List<OperationRow> operations) {

        public Row {
            tenantMedianSeconds = List.copyOf(tenantMedianSeconds);
            operations = List.copyOf(operations);
        }

        /** (predicted − measured) / measured. */
        public double error() {
            return (predictedSeconds - measured.medianSeconds()) / measured.medianSeconds();
        }

        /** The datasheet-based prediction's error, or null when there is none. */
        public Double datasheetError() {
            return datasheetSeconds == null ? null
                    : (datasheetSeconds - measured.medianSeconds()) / measured.medianSeconds();
        }

        /** The error against the drift probe's rates, or null without a probe. */
        public Double probedError() {
            return probedSeconds == null ? null : (probedSeconds - measured.medianSeconds()) / measured.medianSeconds();
        }

        public Row withOperations(List<OperationRow> replaced) {
            return new Row(workload, sizes, measured, predictedSeconds, memoryBoundShare, datasheetSeconds,
                    probedSeconds, tenantMedianSeconds, replaced);
        }
    }

    /** Mean of |error| over the workloads. */
    public double meanAbsoluteError() {
        return rows.stream().mapToDouble(r -> Math.abs(r.error())).average().orElse(Double.NaN);
    }

    /** Largest |error| over the workloads. */
    public double maxAbsoluteError() {
        return rows.stream().mapToDouble(r -> Math.abs(r.error())).max().orElse(Double.NaN);
    }
}
