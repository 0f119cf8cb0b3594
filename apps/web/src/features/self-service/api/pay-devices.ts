import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { PayDevice, RegisteredPayDevice } from '@app/contract';
import { api } from '@/lib/api-client';

export const payDeviceKeys = { all: ['pay-devices', 'me'] as const };

/** GET /me/pay-devices: the signed-in employee's phones (never their secrets). */
export async function getPayDevices(): Promise<PayDevice[]> {
  const response = await api.get('/api/v1/me/pay-devices');
  return response.data.data;
}

export const usePayDevices = () =>
  useQuery({ queryKey: payDeviceKeys.all, queryFn: getPayDevices, staleTime: 30_000 });

/** POST /me/pay-devices: registers this phone; the secret comes this once. */
export async function registerPayDevice(name: string): Promise<RegisteredPayDevice> {
  const response = await api.post('/api/v1/me/pay-devices', { body: { name } });
  return response.data.data;
}

export function useRegisterPayDevice() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: registerPayDevice,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: payDeviceKeys.all }),
  });
}

/** DELETE /me/pay-devices/{device_id}: the device's codes stop at once. */
export async function removePayDevice(deviceId: string): Promise<void> {
  await api.delete('/api/v1/me/pay-devices/{device_id}', {
    params: { path: { device_id: deviceId } },
  });
}

export function useRemovePayDevice() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: removePayDevice,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: payDeviceKeys.all }),
  });
}
