package membound.hardware.host;

/** Which system this is: host name, operating system, JDK, and the firmware's (DMI) vendor and product. */
final class SystemIdentityReader {

    static final String DMI_DIR = "sys/class/dmi/id";

    private final SystemFiles files;

    SystemIdentityReader(SystemFiles files) {
        this.files = files;
    }

    String hostname() {
        return files.readTrimmed("proc/sys/kernel/hostname").orElse(files.java().hostname());
    }

    /** The JVM's {@code os.name} and version, else the kernel's release, else {@code unknown}. */
    String os() {
        JavaFacts java = files.java();
        if (!java.osName().equals("unknown")) {
            return java.osName() + " " + java.osVersion();
        }
        return files.readTrimmed("proc/sys/kernel/osrelease").map(r -> "Linux " + r).orElse("unknown");
    }

    String jdk() {
        JavaFacts java = files.java();
        return java.javaVersion() + " (" + java.javaVendor() + ")";
    }

    /** Empty fields where the firmware tables are absent or unreadable (most VMs, containers). */
    Dmi dmi() {
        return new Dmi(files.readTrimmed(DMI_DIR + "/sys_vendor").orElse(""),
                files.readTrimmed(DMI_DIR + "/product_name").orElse(""),
                files.readTrimmed(DMI_DIR + "/board_name").orElse(""));
    }
}
