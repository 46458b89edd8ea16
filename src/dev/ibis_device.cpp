#include "dev/ibis_device.h"
#include "util/ibis_error.h"

#ifdef IBIS_HAVE_LIBDRM
#include <xf86drm.h>
#endif

namespace ibis {

const device_info &
device_by_name(const std::string &name)
{
   for (unsigned i = 0; i < device_platform_default_count; i++) {
      if (name == device_platform_defaults[i].platform)
         return device_table[device_platform_defaults[i].index];
   }
   for (unsigned i = 0; i < device_table_count; i++) {
      if (name == device_table[i].name)
         return device_table[i];
   }
   std::string known;
   for (unsigned i = 0; i < device_platform_default_count; i++)
      known += std::string(i ? ", " : "") + device_platform_defaults[i].platform;
   throw error(strfmt("unknown platform '%s' (known: %s, or a name such as skl_gt3)",
                      name.c_str(), known.c_str()));
}

const device_info *
device_by_pci_id(uint16_t pci_id)
{
   for (unsigned i = 0; i < device_pci_id_count; i++) {
      if (device_pci_ids[i].id == pci_id)
         return &device_table[device_pci_ids[i].index];
   }
   return nullptr;
}

const device_info *
device_probe(uint16_t *pci_id)
{
#ifdef IBIS_HAVE_LIBDRM
   drmDevicePtr devices[16];
   int n = drmGetDevices2(0, devices, 16);
   if (n <= 0)
      return nullptr;
   const device_info *found = nullptr;
   for (int i = 0; i < n && !found; i++) {
      if (devices[i]->bustype != DRM_BUS_PCI ||
          devices[i]->deviceinfo.pci->vendor_id != 0x8086)
         continue;
      uint16_t id = devices[i]->deviceinfo.pci->device_id;
      found = device_by_pci_id(id);
      if (found && pci_id)
         *pci_id = id;
   }
   drmFreeDevices(devices, n);
   return found;
#else
   (void)pci_id;
   return nullptr;
#endif
}

} /* namespace ibis */
